import type { Engine } from '../../engine/index.ts'
import { assertDeletableByAdmin, deleteUserRecords } from '~/models/admin-users.server.ts'
import { endSessions } from '~/services/auth.server.ts'

/**
 * An admin deletes an account (the users page and DELETE /api/admin/users/{id},
 * docs/decisions/012-admin-deletes.md). Their sessions end first, as at "log out everywhere":
 * the bid calls' cached copies go and their open pages are disconnected; if that cannot be made
 * certain, the account stays (endSessions, app/services/auth.server.ts). Then the account goes.
 */
export async function deleteUser(engine: Engine, adminId: string, id: string) {
  await assertDeletableByAdmin(adminId, id)
  await endSessions(engine, { userId: id })
  await deleteUserRecords(engine, id)
}
