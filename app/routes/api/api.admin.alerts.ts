import type { LoaderFunctionArgs } from '@remix-run/node'
import { adminApi } from '~/services/admin.server.ts'
import { getAlertMetrics } from '~/services/alerts/metrics.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'

// GET /api/admin/alerts -> {queue, channels, deadLetters} (docs/operations.md#the-alert-queue).
export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () => json(await getAlertMetrics()))
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
