import type { ActionFunctionArgs } from '@remix-run/node'
import { createUser, DuplicateError } from '~/models/user.server.ts'
import { getUserView } from '~/models/user-view.server.ts'
import { createSession } from '~/services/auth.server.ts'
import { hit, limits } from '~/services/rate-limit.server.ts'
import {
  apiError,
  json,
  tooMany,
  methodNotAllowed,
  readJson,
  translator,
  validate,
} from '~/utils/api.server.ts'
import { registerSchema } from '~/validation/user.ts'

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const t = await translator(request)
  const body = validate(registerSchema, await readJson(request, t), t)
  const wait = await hit('register-ip', context.clientIp, limits.registerPerIp)
  if (wait) return tooMany(t, wait)
  try {
    const user = await createUser(context.engine, { ...body, ipAddress: context.clientIp || null })
    const cookie = await createSession(request, user.id, context.clientIp)
    return json(
      { user: await getUserView(context.engine, user.id) },
      { status: 201, headers: { 'Set-Cookie': cookie } },
    )
  } catch (error) {
    if (error instanceof DuplicateError) return apiError(409, t(`validation.${error.field}Taken`))
    throw error
  }
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
