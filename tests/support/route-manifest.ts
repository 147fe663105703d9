import { execFileSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

/** One route as `remix routes --json` prints it. */
type Entry = { id: string; path?: string; index?: boolean; file: string; children?: Entry[] }

/** One route of the site: its module (relative to app/) and the address it answers. */
export type Route = {
  /** The route module relative to app/, as Remix names it (routes/admin/admin.users.tsx). */
  file: string
  /** The address, `/` joined from the route's and its parents' paths (`/auction/:slug`). */
  url: string
  index: boolean
  /** The address of the route it renders inside; null for the root. */
  parentUrl: string | null
}

const joined = (parent: string | null, segment: string | undefined) =>
  segment ? `${parent === null || parent === '/' ? '' : parent}/${segment}` : (parent ?? '/')

/**
 * Every route of the app as the Remix CLI reads it (`remix routes --json`, the routes app/routes.ts
 * gives), flattened: the same routes the build serves.
 */
export function routeManifest(): Route[] {
  return routesOf(
    execFileSync('npx', ['remix', 'routes', '--json'], { cwd: root, encoding: 'utf8' }),
  )
}

/** The routes of a `remix routes --json` listing. */
export function routesOf(json: string): Route[] {
  const routes: Route[] = []
  const visit = (entries: Entry[], parentUrl: string | null) => {
    for (const entry of entries) {
      const url = joined(parentUrl, entry.path)
      routes.push({ file: entry.file, url, index: entry.index === true, parentUrl })
      visit(entry.children ?? [], url)
    }
  }
  visit(JSON.parse(json) as Entry[], null)
  return routes
}

/** The routes as lines of the pinned address list (app/routes-addresses.txt), sorted. */
export function addressLines(routes: Route[]): string[] {
  return routes.map((r) => `${r.url}${r.index ? ' (index)' : ''} in ${r.parentUrl ?? '-'}`).sort()
}
