import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, type ClientLoaderFunctionArgs } from '@remix-run/react'
import i18next from 'i18next'
import { ShieldCheck } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { contactsFrom, LegalDocument, PAGES_NS } from '~/components/static-page.tsx'
import { getSettings } from '~/models/settings.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { publicPage } from '~/utils/cache-control.ts'

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

/** Client-side navigation: the page's namespace is fetched with its data, before it renders. */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [data] = await Promise.all([
    serverLoader<typeof loader>(),
    i18next.loadNamespaces(PAGES_NS),
  ])
  return data
}

export const handle = { i18n: PAGES_NS }

export default function PrivacyPolicyRoute() {
  const { siteName, contacts } = useLoaderData<typeof loader>()
  return <LegalDocument k="privacy" icon={ShieldCheck} siteName={siteName} contacts={contacts} />
}

/** The same page for every visitor of a language and cookie choices (app/utils/cache-control.ts). */
export const headers = publicPage(10)

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
