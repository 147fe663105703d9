import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { updateProfile } from '~/models/account.server.ts'
import { getUserView } from '~/models/user-view.server.ts'
import {
  answerRefusals,
  json,
  methodNotAllowed,
  readJson,
  translator,
  validate,
} from '~/utils/api.server.ts'
import { requireApiUser } from '~/services/guards.server.ts'
import { profileSchema } from '~/validation/user.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await translator(request)
  const user = await requireApiUser(request, t)
  return json({ user: await getUserView(context.engine, user.id) })
}

/** PUT {firstName, lastName, email, phone, dateOfBirth, gender} -> {user}. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(request)
  const t = await translator(request)
  const user = await requireApiUser(request, t)
  const input = validate(profileSchema, await readJson(request, t), t)
  return answerRefusals(t, async () => {
    await updateProfile(user.id, input)
    return json({ user: await getUserView(context.engine, user.id) })
  })
}
