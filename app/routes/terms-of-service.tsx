import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { FileText } from 'lucide-react'
import { contactsFrom, LegalDocument, PAGES_NS } from '~/components/static-page.tsx'
import { getSettings } from '~/models/settings.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'

// /terms-of-service (docs/rules.md#static-pages): the user agreement of the auction
// (docs/decisions/010-static-texts.md). The operator's name and contacts are the site settings.
export async function loader({ request }: LoaderFunctionArgs) {
  const [t, settings] = await Promise.all([getFixedT(request, PAGES_NS), getSettings()])
  return { title: t('terms.title'), siteName: settings.siteName, contacts: contactsFrom(settings) }
}

export default function TermsOfServiceRoute() {
  const { siteName, contacts } = useLoaderData<typeof loader>()
  return <LegalDocument k="terms" icon={FileText} siteName={siteName} contacts={contacts} />
}

export { clientLoader, ErrorBoundary, handle, headers, meta } from '~/components/static-route.ts'
