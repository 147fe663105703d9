import type { MetaFunction } from '@remix-run/node'

/**
 * A page's <title>: the `title` its loader wrote, in the reader's language (empty when the loader
 * wrote none, as on an error), and the site's description from the root (a route's meta replaces
 * its parents' whole). Use: `export const meta = titleMeta`.
 */
export const titleMeta: MetaFunction = ({ data, matches }) => {
  const title = data && typeof data === 'object' && 'title' in data ? data.title : undefined
  const description = matches
    .flatMap((match) => match.meta ?? [])
    .filter((tag) => 'name' in tag && tag.name === 'description')
    .slice(-1)
  return [{ title: typeof title === 'string' ? title : '' }, ...description]
}
