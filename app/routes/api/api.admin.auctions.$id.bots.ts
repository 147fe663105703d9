import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { assignBot, listAssignments } from '~/models/admin-bots.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { botAssignSchema } from '~/validation/admin-bots.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return adminApi(request, async () => json(await listAssignments(params.id ?? '')))
}

/** POST {botId, bidLimit} (0 = no limit) -> 201; a bot twice on one auction is a 409. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return adminApi(request, async (t) => {
    const input = validate(botAssignSchema, await readJson(request, t), t)
    return json(await assignBot(params.id ?? '', input.botId, input.bidLimit), 201)
  })
}
