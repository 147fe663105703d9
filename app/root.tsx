import {
  data,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from '@remix-run/react'
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { PageTexts } from '~/i18n/page-texts.tsx'
import { useChangeLanguage } from 'remix-i18next/react'
import { CookieBanner } from '~/components/cookie-banner.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { SiteFooter } from '~/components/site-footer.tsx'
import { SiteHeader } from '~/components/site-header.tsx'
import { Toaster } from '~/components/toaster.tsx'
import { SocketProvider } from '~/utils/socket.tsx'
import { fallbackLanguage } from '~/i18n/config.ts'
import { getSettings } from '~/models/settings.server.ts'
import { getSiteStats } from '~/models/site-stats.server.ts'
import { getConsent } from '~/services/consent.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { getFixedT, getLanguage } from '~/i18n/i18next.server.ts'
import { getOptionalUser, withLiveBalance } from '~/services/session.server.ts'
import { readOnboarding } from '~/services/onboarding.server.ts'
import type { Onboarding as OnboardingSteps } from '~/types/onboarding.ts'
import type { RootData } from '~/types/root-data.ts'
import { getToast } from '~/services/toast.server.ts'
import { PAGE_VARY, PRIVATE } from '~/utils/cache-control.ts'
import { combineHeaders } from '~/utils/http.ts'
import { useOptionalRootData } from '~/utils/hooks.ts'
import { useNonce } from '~/utils/nonce.ts'
import { SiteStyles } from '~/utils/site-styles.tsx'
import { revalidateUnlessBid } from '~/utils/revalidation.ts'
import { APPLE_TOUCH_ICON, THEME_COLOR } from '~/utils/web-app.ts'
import { inTelegram } from '~/services/telegram/mini-app.server.ts'
import { useTelegramShell } from '~/utils/telegram-web-app.ts'

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  // The installable app (docs/push.md).
  { rel: 'manifest', href: '/manifest.webmanifest' },
  { rel: 'apple-touch-icon', href: APPLE_TOUCH_ICON },
]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [language, sessionUser, settings, stats, { toast, headers: toastHeaders }] =
    await Promise.all([
      getLanguage(request),
      getOptionalUser(request),
      getSettings(),
      getSiteStats(),
      getToast(request),
    ])
  // The bid balance is hot in Redis; Postgres may trail it by the outbox.
  const user = sessionUser ? await withLiveBalance(sessionUser, context.engine) : null
  const { onboarding, clear } = await readOnboarding(request)
  const consent = getConsent(request)
  const telegram = await inTelegram(request)
  // A page for a signed-in person, or one that shows a message once, is theirs alone.
  const personal = Boolean(user || toast || toastHeaders || clear)
  const body: RootData = {
    language,
    user,
    onboarding: user ? onboarding : { welcome: false, completeProfile: false },
    settings,
    stats,
    toast,
    consent,
    gtmId: consent?.preferences.analytics ? (getEnv().GTM_ID ?? null) : null,
    telegram,
    // What search results show under the site's name: the admin's tagline, else ours.
    description: settings.headerTagline || (await getFixedT(language))('meta.description'),
    path: new URL(request.url).pathname + new URL(request.url).search,
  }
  return data(body, {
    headers: combineHeaders(toastHeaders, clear ? { 'Set-Cookie': clear } : null, {
      Vary: PAGE_VARY,
      'Cache-Control': personal ? PRIVATE : 'no-cache',
    }),
  })
}

// A page whose route says nothing of caching is asked for again every time; a personal one is
// never kept (app/utils/cache-control.ts).
export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  Vary: loaderHeaders.get('Vary') ?? PAGE_VARY,
  'Cache-Control': loaderHeaders.get('Cache-Control') ?? PRIVATE,
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.settings.siteName ?? '' },
  { name: 'description', content: data?.description ?? '' },
]

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  const language = data?.language ?? fallbackLanguage
  useChangeLanguage(language)
  return (
    <html lang={language} className="h-full" data-telegram={data?.telegram ? '' : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <meta name="theme-color" content={THEME_COLOR} />
        <Meta />
        <SiteStyles />
        <Links />
        {data?.gtmId ? <TagManager id={data.gtmId} nonce={nonce} /> : null}
      </head>
      <body className="flex min-h-full flex-col bg-slate-50 text-slate-900 antialiased">
        {children}
        <PageTexts />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/** Google Tag Manager's loader; it reads the events `track` puts in `window.dataLayer`. */
function TagManager({ id, nonce }: { id: string; nonce: string | undefined }) {
  const code = `(function(w,d,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':Date.now(),event:'gtm.js'});var j=d.createElement('script');j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+encodeURIComponent(i);var n=d.querySelector('script[nonce]');if(n)j.nonce=n.nonce;d.head.appendChild(j);})(window,document,'dataLayer',${JSON.stringify(id)});`
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: code }} />
}

function SkipLink() {
  const { t } = useTranslation()
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded bg-white px-4 py-2 text-slate-900 focus:not-sr-only focus:absolute focus:left-2 focus:top-2"
    >
      {t('nav.skipToContent')}
    </a>
  )
}

// The onboarding dialogs and their form are for someone who has just registered: their code is
// loaded only then (on the server too, so that the page's HTML has them without JavaScript).
const Onboarding = lazy(() =>
  import('~/components/onboarding.tsx').then((module) => ({ default: module.Onboarding })),
)

function OnboardingWhenDue() {
  const data = useOptionalRootData()
  const welcome = Boolean(data?.user && data.onboarding.welcome)
  const completeProfile = Boolean(data?.user && data.onboarding.completeProfile)
  // The flags end once shown (app/services/onboarding.server.ts) and the root's data may be read
  // again before the dialogs' code has arrived on a slow connection: the steps asked for are kept
  // here and handed to the dialogs, rather than read by them from data that has forgotten them.
  const [steps, setSteps] = useState<OnboardingSteps | null>(
    welcome || completeProfile ? { welcome, completeProfile } : null,
  )
  useEffect(() => {
    if (welcome || completeProfile) setSteps({ welcome, completeProfile })
  }, [welcome, completeProfile])
  return steps ? (
    <Suspense fallback={null}>
      <Onboarding onboarding={steps} />
    </Suspense>
  ) : null
}

export default function App() {
  useTelegramShell()
  return (
    <SocketProvider>
      <SkipLink />
      <SiteHeader />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6">
        <OnboardingWhenDue />
        <Outlet />
      </main>
      <SiteFooter />
      <CookieBanner />
      <Toaster />
    </SocketProvider>
  )
}

// After a bid sent with JavaScript nothing is read again: its news (price, timer, last bidder,
// the new bid balance) comes through the socket.
export const shouldRevalidate = revalidateUnlessBid

export function ErrorBoundary() {
  return (
    <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10">
      <GeneralErrorBoundary />
    </main>
  )
}
