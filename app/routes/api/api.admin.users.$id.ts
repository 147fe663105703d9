import type { ActionFunctionArgs } from '@remix-run/node'
import { editUser } from '~/models/admin-users.server.ts'
import { deleteUser } from '~/services/delete-user.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { idempotencyKeySchema, userEditSchema } from '~/validation/admin-users.ts'

/**
 * PATCH {username, firstName, lastName, email, phone, role, bidBalance} or, instead of
 * bidBalance, bidBalanceAdjustment: {delta, reason} (app/validation/admin-users.ts); an
 * `Idempotency-Key` header makes its balance change apply once however often it is sent
 * (docs/decisions/042-balance-set-once.md). DELETE.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = params.id ?? ''
  if (request.method === 'PATCH') {
    return adminApi(request, async (t, admin) => {
      const header = request.headers.get('Idempotency-Key')
      const key = header === null ? undefined : validate(idempotencyKeySchema, header, t)
      const input = validate(userEditSchema, await readJson(request, t), t)
      return json(await editUser(context.engine, admin.id, id, input, key))
    })
  }
  if (request.method === 'DELETE') {
    return adminApi(request, async (_t, admin) => {
      await deleteUser(context.engine, admin.id, id)
      return json({ ok: true })
    })
  }
  return methodNotAllowed(request)
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
