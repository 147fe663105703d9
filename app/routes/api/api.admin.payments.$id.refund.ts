import type { ActionFunctionArgs } from '@remix-run/node'
import { adminApi } from '~/services/admin.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { refundHeldPayment } from '~/services/payments/refund.server.ts'
import { answerRefusals, json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { toMajor } from '~/utils/money.ts'
import { refundSchema } from '~/validation/order.ts'

/**
 * POST {reason} -> {refund}: returns held money no order holds through its provider
 * (docs/rules.md#refunds). Anything but such held money: 409; the provider refused: 502;
 * unreachable: 503.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return adminApi(request, async (_t, admin) => {
    const t = await getFixedT(request, ['admin-payments', 'admin-orders', 'admin', 'common'])
    const { reason } = validate(refundSchema, await readJson(request, t), t)
    return answerRefusals(t, async () => {
      const refund = await refundHeldPayment((params.id ?? '').slice(0, 64), admin, reason)
      return json({
        refund: {
          paymentId: refund.paymentId,
          amount: toMajor(refund.amount),
          currency: refund.currency,
        },
      })
    })
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
