import type { MetaFunction } from '@remix-run/node'

/**
 * A page's <title>: the `title` its loader wrote, in the reader's language (empty when the loader
 * wrote none, as on an error). Use: `export const meta = titleMeta`.
 */
export const titleMeta: MetaFunction = ({ data }) => {
  const title = data && typeof data === 'object' && 'title' in data ? data.title : undefined
  return [{ title: typeof title === 'string' ? title : '' }]
}
