import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { titleMeta } from '~/utils/meta.ts'

// "The site is working", in the site's layout: what an uptime check that renders a page asks
// for, and the benchmarks' measure of the layout's own cost (bench/ssr.ts).
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request)
  return { title: t('status.title'), text: t('status.ok') }
}

export default function StatusRoute() {
  const { text } = useLoaderData<typeof loader>()
  return <p>{text}</p>
}

export const meta = titleMeta

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
