import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { createBot, listBots } from '~/models/admin-bots.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { pageParam } from '~/utils/http.ts'
import { botCreateSchema } from '~/validation/admin-bots.ts'

/** `?page=` of 5, newest first -> {bots, total, page, totalPages}. */
export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () =>
    json(await listBots(pageParam(new URL(request.url).searchParams.get('page')))),
  )
}

/** POST {firstName, lastName, username?, isActive?} -> 201 (a username is made up when absent). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return adminApi(request, async (t) => {
    const input = validate(botCreateSchema, await readJson(request, t), t)
    return json(await createBot(input), 201)
  })
}
