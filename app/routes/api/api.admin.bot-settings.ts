import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { getBotSettings, updateBotSettings } from '~/models/admin-bots.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { botSettingsSchema } from '~/validation/admin-bots.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () => json(await getBotSettings()))
}

/** PUT with one or more of {enabled, minDelay, maxDelay, activeBots}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(request)
  return adminApi(request, async (t) => {
    const input = validate(botSettingsSchema, await readJson(request, t), t)
    return json(await updateBotSettings(input))
  })
}
