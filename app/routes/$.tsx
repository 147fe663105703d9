import type { MetaFunction } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'

// Any path no other route claims: "404 Page Not Found" with status 404.
export function loader() {
  throw new Response('Not Found', { status: 404 })
}

export function action() {
  throw new Response('Not Found', { status: 404 })
}

export default function NotFoundRoute() {
  return null
}

export const meta: MetaFunction = () => [{ title: '404 Page Not Found' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
