import { parseWithZod } from '@conform-to/zod'
import { DomainError } from '~/utils/domain-error.ts'
import { buyNow, setDelivery } from '~/models/order.server.ts'
import { getUserOrder } from '~/models/payment.server.ts'
import { requireUser } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { refuseForm } from '~/services/refuse-form.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { deliverySchema } from '~/validation/order.ts'

// The plain-form sides of orders: the delivery form on /profile and the "Buy now" form on the
// auction page. Both work without JavaScript (redirect with a toast; field errors come back as
// action data to the same page).

const ORDERS_NS = ['orders', 'common'] as const

/** intent=delivery on /profile: field errors come back to the order's form. */
export async function handleDeliveryForm(request: Request, userId: string, form: FormData) {
  const t = await getFixedT(request, ORDERS_NS)
  const orderId = String(form.get('orderId') ?? '').slice(0, 64)
  const submission = parseWithZod(form, { schema: deliverySchema })
  const failed = (status: number, result: ReturnType<typeof submission.reply>) =>
    refuseForm(result, {
      status,
      title: t('delivery.failed'),
      text: (key) => t(key),
      extra: { result: undefined, delivery: { orderId, result } },
    })
  // Not one of this person's orders: there is no order form on /profile to show an error at.
  const unknown = () =>
    redirectWithToast('/profile', {
      type: 'error',
      title: t('delivery.failed'),
      description: t('errors.notFound'),
    })
  if (!(await getUserOrder(userId, orderId))) return unknown()
  if (submission.status !== 'success') return failed(400, submission.reply())
  try {
    await setDelivery(userId, orderId, submission.value)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    if (error.status === 404) return unknown()
    return failed(error.status, submission.reply({ formErrors: [error.key] }))
  }
  return redirectWithToast(`/profile#order-${orderId}`, {
    type: 'success',
    description: t('delivery.saved'),
  })
}

/** intent=buyNow on the auction page: to /profile with the new order, or back with why not. */
export async function handleBuyNowForm(request: Request, auctionId: string, back: string) {
  const user = await requireUser(request, { redirectTo: back })
  const t = await getFixedT(request, ORDERS_NS)
  try {
    const order = await buyNow(auctionId, user.id)
    return redirectWithToast(`/profile#order-${order.id}`, {
      type: 'success',
      description: t('buyNow.created'),
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return redirectWithToast(back, {
      type: 'error',
      title: t('buyNow.failed'),
      description: t(error.key),
    })
  }
}
