import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ShieldCheck } from 'lucide-react'
import { contactsFrom, LegalDocument, PAGES_NS } from '~/components/static-page.tsx'
import { getSettings } from '~/models/settings.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'

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

export default function PrivacyPolicyRoute() {
  const { siteName, contacts } = useLoaderData<typeof loader>()
  return <LegalDocument k="privacy" icon={ShieldCheck} siteName={siteName} contacts={contacts} />
}

export { clientLoader, ErrorBoundary, handle, headers, meta } from '~/components/static-route.ts'
