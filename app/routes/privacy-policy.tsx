import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import { ShieldCheck } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { contactsFrom, LegalDocument, PAGES_NS } from '~/components/static-page.tsx'
import { getSettings } from '~/models/settings.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { publicPage } from '~/utils/cache-control.ts'
import { titleMeta } from '~/utils/meta.ts'

// /privacy-policy (docs/rules.md#static-pages): the privacy policy under the Kyrgyz Republic's Law
// "On information of a personal nature" (docs/decisions/010-static-texts.md). The operator's
// name and contacts are the site settings.
export async function loader({ request }: LoaderFunctionArgs) {
  const [t, settings] = await Promise.all([getFixedT(request, PAGES_NS), getSettings()])
  return {
    title: t('privacy.title'),
    siteName: settings.siteName,
    contacts: contactsFrom(settings),
  }
}

const i18n = i18nRoute(PAGES_NS)
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

export default function PrivacyPolicyRoute() {
  const { siteName, contacts } = useLoaderData<typeof loader>()
  return <LegalDocument k="privacy" icon={ShieldCheck} siteName={siteName} contacts={contacts} />
}

/** The same page for every visitor of a language and cookie choices (app/utils/cache-control.ts). */
export const headers = publicPage(10)

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
