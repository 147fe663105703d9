import type { LoaderFunctionArgs } from '@remix-run/node'
import { listPayments, paymentJson } from '~/models/payment-admin.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { apiError, json, methodNotAllowed } from '~/utils/api.server.ts'
import { pageParam } from '~/utils/http.ts'
import { paymentStatusParam } from '~/validation/payment-status.ts'

/**
 * GET ?status=&page= -> {payments, status, total, page, totalPages}: newest first, money in som.
 * A status that is none of PaymentStatus (prisma/schema/payments.prisma) is a 400 (a mistyped
 * filter must not answer every payment); a page that is no number counts as 1, one past the end
 * as the last.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () => {
    const params = new URL(request.url).searchParams
    const raw = params.get('status')
    const status = paymentStatusParam(raw)
    if (raw && !status) {
      const t = await getFixedT(request, 'admin-payments')
      return apiError(400, t('errors.status'))
    }
    const list = await listPayments({ status, page: pageParam(params.get('page')) })
    return json({ ...list, status, payments: list.payments.map(paymentJson) })
  })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
