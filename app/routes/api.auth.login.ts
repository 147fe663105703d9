import type { ActionFunctionArgs } from '@remix-run/node'
import { getUserView } from '~/models/user-view.server.ts'
import { authenticator, createSession, InvalidCredentials } from '~/services/auth.server.ts'
import { hit, limits, reset } from '~/services/rate-limit.server.ts'
import {
  apiError,
  json,
  tooMany,
  methodNotAllowed,
  readJson,
  translator,
  validate,
} from '~/utils/api.server.ts'
import { loginSchema } from '~/validation/user.ts'

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const t = await translator(request)
  const body = validate(loginSchema, await readJson(request, t), t)
  const wait =
    (await hit('login-ip', context.clientIp, limits.loginPerIp)) ||
    (await hit('login-user', body.username, limits.loginPerUsername))
  if (wait) return tooMany(t, wait)
  const form = new FormData()
  form.set('username', body.username)
  form.set('password', body.password)
  let userId: string
  try {
    userId = await authenticator.authenticate(
      'form',
      new Request(request.url, { method: 'POST', body: form }),
    )
  } catch (error) {
    if (error instanceof InvalidCredentials) return apiError(401, t('auth.invalidCredentials'))
    throw error
  }
  await reset('login-user', body.username, limits.loginPerUsername)
  const cookie = await createSession(request, userId, context.clientIp)
  return json(
    { user: await getUserView(context.engine, userId) },
    { headers: { 'Set-Cookie': cookie } },
  )
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
