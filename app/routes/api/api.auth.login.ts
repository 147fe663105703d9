import type { ActionFunctionArgs } from '@remix-run/node'
import { getUserView } from '~/models/user-view.server.ts'
import { logIn } from '~/services/login.server.ts'
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
  const outcome = await logIn(request, context, body)
  if (!outcome.ok)
    return outcome.status === 429
      ? tooMany(t, outcome.seconds)
      : apiError(outcome.status, t(outcome.message))
  return json(
    { user: await getUserView(context.engine, outcome.userId) },
    { headers: { 'Set-Cookie': outcome.cookie } },
  )
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
