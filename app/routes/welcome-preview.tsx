import type { LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { Eye, Gift, Lightbulb, PartyPopper } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { WelcomeContent } from '~/components/onboarding.tsx'
import { PAGES_NS, PageHero, primaryButton, secondaryButton } from '~/components/static-page.tsx'
import { FREE_BIDS } from '~/models/user.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { useOptionalUser } from '~/utils/hooks.ts'
import { titleMeta } from '~/utils/meta.ts'

// docs/rules.md#onboarding: the welcome dialog's content as a plain page. A member
// sees exactly what the dialog shows them; a guest sees the same tips with an invitation.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request, PAGES_NS)
  return { title: t('welcomePreview.title'), freeBids: FREE_BIDS }
}

const i18n = i18nRoute(PAGES_NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export default function WelcomePreviewRoute() {
  const { t } = useTranslation(PAGES_NS)
  const user = useOptionalUser()
  return (
    <div className="space-y-8">
      <PageHero icon={Eye} title={t('welcomePreview.title')} lead={t('welcomePreview.lead')} />
      <section
        aria-labelledby="welcome-preview-title"
        className="mx-auto max-w-lg rounded-2xl border border-amber-200 bg-amber-50 p-6 shadow-sm"
      >
        {user ? <WelcomeContent titleId="welcome-preview-title" /> : <GuestWelcome />}
      </section>
    </div>
  )
}

/** The welcome content for a visitor without an account: the gift is a promise, not a fact. */
function GuestWelcome() {
  const { t } = useTranslation(PAGES_NS)
  // The tips are the dialog's own texts (common namespace), so the preview cannot drift.
  const { t: tCommon } = useTranslation()
  const { freeBids } = useLoaderData<typeof loader>()
  return (
    <div>
      <PartyPopper aria-hidden className="welcome-icon mb-3 h-10 w-10 text-amber-600" />
      <h2 id="welcome-preview-title" className="text-2xl font-bold">
        {t('welcomePreview.guestTitle')}
      </h2>
      <p className="mt-3 flex items-center gap-2 rounded-lg bg-white/70 p-3 font-medium text-amber-900">
        <Gift aria-hidden className="h-5 w-5 shrink-0" />
        {t('welcomePreview.guestGift', { count: freeBids })}
      </p>
      <h3 className="mt-4 flex items-center gap-2 font-semibold">
        <Lightbulb aria-hidden className="h-4 w-4" />
        {tCommon('welcome.tipsTitle')}
      </h3>
      <ul className="mt-2 list-disc space-y-1 pl-6 text-sm text-slate-700">
        <li>{tCommon('welcome.tips.one')}</li>
        <li>{tCommon('welcome.tips.two')}</li>
        <li>{tCommon('welcome.tips.three')}</li>
      </ul>
      <div className="mt-5 flex flex-wrap gap-2">
        <Link to="/login?tab=register" className={primaryButton}>
          {t('welcomePreview.register')}
        </Link>
        <Link to="/how-it-works" className={secondaryButton}>
          {tCommon('welcome.howItWorks')}
        </Link>
      </div>
    </div>
  )
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
