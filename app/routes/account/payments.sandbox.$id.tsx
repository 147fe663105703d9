import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { CreditCard, FlaskConical, Loader2 } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { PAYMENTS_NS } from '~/components/topup/package-card.tsx'
import { PaymentPanel } from '~/components/topup/payment-panel.tsx'
import { getUserPayment } from '~/models/payment.server.ts'
import { requireUser } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { log } from '~/utils/logger.server.ts'
import { sandboxWebhook } from '~/services/payments/sandbox.server.ts'
import { handlePaymentWebhook } from '~/services/payments/webhook.server.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { readForm } from '~/utils/form.server.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'

// The sandbox provider's hosted checkout (docs/payments.md). Pay and Decline make the webhook
// a real provider would send, signed with PAYMENT_SANDBOX_SECRET, and hand it to the same
// handler as /api/payments/webhook/sandbox; then the payer returns to /topup?payment={id}.

const NS = [PAYMENTS_NS, 'common'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

async function loadOwnPayment(request: Request, id: string) {
  const user = await requireUser(request, { redirectTo: new URL(request.url).pathname })
  const payment = await getUserPayment(user.id, id)
  if (!payment || payment.provider !== 'sandbox') {
    const t = await getFixedT(request)
    throw data(t('api.notFound'), { status: 404 })
  }
  if (payment.status !== 'pending') throw redirect(resultUrl(payment.id))
  return payment
}

const resultUrl = (paymentId: string) => `/topup?payment=${encodeURIComponent(paymentId)}`

export async function loader({ request, params }: LoaderFunctionArgs) {
  const payment = await loadOwnPayment(request, params.id ?? '')
  const t = await getFixedT(request, NS)
  return {
    title: t('sandbox.title'),
    payment: {
      id: payment.id,
      amount: payment.amount,
      description:
        payment.purpose === 'package'
          ? t('checkout.packageDescription', { count: payment.bids })
          : t('checkout.orderDescription', { title: payment.itemTitle ?? '' }),
    },
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await readForm(request)
  const intent = form.get('intent')
  if (intent !== 'pay' && intent !== 'decline') {
    const t = await getFixedT(request, NS)
    throw data(t('sandbox.invalid'), { status: 400 })
  }
  const payment = await loadOwnPayment(request, params.id ?? '')
  const { body, headers } = sandboxWebhook(payment, intent === 'pay' ? 'paid' : 'failed')
  const delivery = new Request(new URL('/api/payments/webhook/sandbox', request.url), {
    method: 'POST',
    headers,
    body,
  })
  const response = await handlePaymentWebhook('sandbox', delivery, context.engine, context.clientIp)
  if (!response.ok) {
    log.warn('sandbox webhook refused', { paymentId: payment.id, status: response.status })
  }
  return redirect(resultUrl(payment.id))
}

export default function SandboxCheckoutRoute() {
  const { payment } = useLoaderData<typeof loader>()
  const { t } = useTranslation(PAYMENTS_NS)
  const money = useFormatMoney()
  const paying = useIsPending({ intent: 'pay' })
  const declining = useIsPending({ intent: 'decline' })
  const busy = paying ? 'pay' : declining ? 'decline' : null
  // What is paid, how much, and the payment's reference: each a label and its value's look.
  const facts = [
    [t('sandbox.paying'), payment.description, 'text-lg font-semibold'],
    [t('sandbox.amount'), money(payment.amount), 'text-2xl font-black text-amber-800'],
    [t('sandbox.reference'), payment.id, 'font-mono text-sm'],
  ] as const
  return (
    <PaymentPanel id="sandbox-title" icon={CreditCard} title={t('sandbox.title')} width="max-w-md">
      <p className="mt-3 flex gap-2 rounded-lg bg-sky-50 p-3 text-sm text-sky-900">
        <FlaskConical aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        {t('sandbox.notice')}
      </p>
      <dl className="mt-5 space-y-3">
        {facts.map(([label, value, look]) => (
          <div key={label}>
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className={look}>{value}</dd>
          </div>
        ))}
      </dl>
      <Form method="post" className="mt-6 flex flex-wrap gap-3">
        <button
          type="submit"
          name="intent"
          value="pay"
          disabled={Boolean(busy)}
          className="flex flex-1 items-center justify-center gap-2 rounded-lg bg-green-700 px-4 py-2.5 font-bold text-white hover:bg-green-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-green-400 disabled:opacity-80"
        >
          {busy === 'pay' ? <Loader2 aria-hidden className="h-5 w-5 animate-spin" /> : null}
          {t('sandbox.pay')}
        </button>
        <button
          type="submit"
          name="intent"
          value="decline"
          disabled={Boolean(busy)}
          className="flex flex-1 items-center justify-center gap-2 rounded-lg border border-slate-300 px-4 py-2.5 font-bold text-slate-900 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 disabled:opacity-80"
        >
          {busy === 'decline' ? <Loader2 aria-hidden className="h-5 w-5 animate-spin" /> : null}
          {t('sandbox.decline')}
        </button>
      </Form>
    </PaymentPanel>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title ?? '' },
  { name: 'robots', content: 'noindex' },
]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
