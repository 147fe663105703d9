import { flatRoutes } from '@remix-run/fs-routes'
import type { RouteConfig } from '@remix-run/route-config'

// Every address of the site, in Remix's flat file names (docs/guides/adding-a-page.md). The
// admin, account, auction and API routes each live in a folder of their own under app/routes/;
// the pages that belong to none of them (home, static pages, status) stay in app/routes/ itself.
// A folder read here keeps the full flat names (admin/admin.users.tsx is /admin/users), so a
// file's name still says its address. The addresses are pinned by app/routes-addresses.test.ts.

/** Files next to the routes that are no routes. */
const ignoredRouteFiles = ['**/*.test.{ts,tsx}', '**/*.css']

/** The folders of app/routes/ with routes of their own; app/routes/ reads none of them. */
export const routeFolders = ['admin', 'account', 'auction', 'api'] as const

export default [
  ...(await flatRoutes({ ignoredRouteFiles })),
  ...(
    await Promise.all(
      routeFolders.map((folder) =>
        flatRoutes({ rootDirectory: `routes/${folder}`, ignoredRouteFiles }),
      ),
    )
  ).flat(),
] satisfies RouteConfig
