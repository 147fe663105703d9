import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { Coins, Headphones, ListOrdered, ShieldCheck, Ticket, Zap } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Card, PageHero, PageSection, primaryButton } from '~/components/static-page.tsx'
import { PackageCard, PAYMENTS_NS } from '~/components/topup/package-card.tsx'
import { PaymentResult } from '~/components/topup/payment-result.tsx'
import { getUserPayment } from '~/models/payment.server.ts'
import { requireUser } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { startPackageCheckout } from '~/services/payments/checkout.server.ts'
import { getOptionalUser } from '~/services/session.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { BID_PACKAGES, findBidPackage } from '~/utils/bid-packages.ts'
import { readForm } from '~/utils/form.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { titleMeta } from '~/utils/meta.ts'

// /topup (docs/rules.md#top-up-and-payments): the packages, a Buy button on each
// that opens the payment provider's checkout, and the result when the payer comes back
// (?payment={id}). How the money becomes bids: docs/payments.md.

const NS = [PAYMENTS_NS, 'common'] as const
const i18n = i18nRoute(NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request, NS)
  const user = await getOptionalUser(request)
  const paymentId = new URL(request.url).searchParams.get('payment')
  const payment = user && paymentId ? await getUserPayment(user.id, paymentId) : null
  return data(
    {
      title: t('topup.title'),
      packages: BID_PACKAGES,
      loggedIn: Boolean(user),
      payment,
      // The sandbox moves no money: the page says so while it takes the payments.
      demo: getEnv().PAYMENT_PROVIDER === 'sandbox',
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  const t = await getFixedT(request, NS)
  const form = await readForm(request)
  if (form.get('intent') !== 'buy') throw data(t('common:api.invalid'), { status: 400 })
  const user = await requireUser(request, { redirectTo: '/topup' })
  const pkg = findBidPackage(form.get('packageId'))
  if (!pkg) {
    return redirectWithToast(
      '/topup',
      { type: 'error', title: t('topup.buyFailed'), description: t('topup.unknownPackage') },
      { status: 303 },
    )
  }
  return redirect(await startPackageCheckout(request, user.id, pkg, t))
}

const trust = [
  { key: 'secure', icon: ShieldCheck },
  { key: 'instant', icon: Zap },
  { key: 'support', icon: Headphones },
] as const

const guide = ['choose', 'pay', 'bid'] as const

export default function TopupRoute() {
  const { packages, loggedIn, payment, demo } = useLoaderData<typeof loader>()
  const { t } = useTranslation(PAYMENTS_NS)
  return (
    <div className="space-y-12">
      <PageHero icon={Coins} title={t('topup.title')} lead={t('topup.lead')} />

      {demo ? (
        <p
          role="note"
          data-testid="sandbox-demo"
          className="rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm font-medium text-sky-900"
        >
          {t('sandbox.demoBanner')}
        </p>
      ) : null}

      {payment ? <PaymentResult payment={payment} /> : null}

      <PageSection id="packages" title={t('topup.packagesTitle')} icon={Ticket}>
        {loggedIn ? null : <p className="mb-4 text-slate-700">{t('topup.loginHint')}</p>}
        <ul className="grid gap-6 pt-3 sm:grid-cols-2 lg:grid-cols-5">
          {packages.map((pkg) => (
            <li key={pkg.id}>
              <PackageCard pkg={pkg} loggedIn={loggedIn} />
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection id="trust" title={t('topup.trustTitle')} icon={ShieldCheck}>
        <ul className="grid gap-4 md:grid-cols-3">
          {trust.map(({ key, icon: Icon }) => (
            <li key={key}>
              <Card className="h-full">
                <Icon aria-hidden className="h-7 w-7 text-amber-600" />
                <h3 className="mt-2 text-lg font-semibold">{t(`topup.trust.${key}.title`)}</h3>
                <p className="mt-1 text-slate-700">{t(`topup.trust.${key}.text`)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection id="guide" title={t('topup.guideTitle')} icon={ListOrdered}>
        <ol className="grid gap-4 md:grid-cols-3">
          {guide.map((key, index) => (
            <li key={key}>
              <Card className="h-full">
                <span className="flex h-9 w-9 items-center justify-center rounded-full bg-slate-900 font-bold text-white">
                  {index + 1}
                </span>
                <h3 className="mt-3 text-lg font-semibold">{t(`topup.guide.${key}.title`)}</h3>
                <p className="mt-1 text-slate-700">{t(`topup.guide.${key}.text`)}</p>
              </Card>
            </li>
          ))}
        </ol>
        <Link to="/auctions" className={`${primaryButton} mt-6`}>
          {t('topup.toAuctions')}
        </Link>
      </PageSection>
    </div>
  )
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
