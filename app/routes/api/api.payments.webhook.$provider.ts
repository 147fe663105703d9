import type { ActionFunctionArgs } from '@remix-run/node'
import { handlePaymentWebhook } from '~/services/payments/webhook.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'

// POST /api/payments/webhook/{provider}: a provider's server tells us how a payment ended.
// Signed instead of session-bound; exempt from the Origin check (server/origin.ts).

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return handlePaymentWebhook(params.provider ?? '', request, context.engine, context.clientIp)
}
