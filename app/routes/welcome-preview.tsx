import type { LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { Eye } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { WelcomeBody, WelcomeContent } from '~/components/welcome.tsx'
import { PAGES_NS, PageHero, primaryButton, secondaryButton } from '~/components/static-page.tsx'
import { FREE_BIDS } from '~/models/user.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
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
  const { t: tCommon } = useTranslation()
  const { freeBids } = useLoaderData<typeof loader>()
  return (
    <WelcomeBody
      titleId="welcome-preview-title"
      title={t('welcomePreview.guestTitle')}
      gift={t('welcomePreview.guestGift', { count: freeBids })}
    >
      <Link to="/login?tab=register" className={primaryButton}>
        {t('welcomePreview.register')}
      </Link>
      <Link to="/how-it-works" className={secondaryButton}>
        {tCommon('welcome.howItWorks')}
      </Link>
    </WelcomeBody>
  )
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
