// The bare app's root (bench/bare.ts copies it): Remix's own starting template, and one effect
// that says when the page has hydrated (bench:phone's signal, bench/phone-browser.ts).
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from '@remix-run/react'
import { useEffect, type ReactNode } from 'react'

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

export default function App() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = String(performance.now())
  }, [])
  return <Outlet />
}
