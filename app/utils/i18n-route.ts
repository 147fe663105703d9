import type { ClientLoaderFunctionArgs } from '@remix-run/react'
import i18next from 'i18next'

/**
 * A page's translations, in two exports: `handle.i18n` names its namespaces (the server renders
 * with them and the browser loads them before hydrating, app/entry.client.tsx), and
 * `clientLoader` fetches them together with the page's data on a client-side navigation, so the
 * page never renders with texts missing. Use:
 *
 *     const i18n = i18nRoute(NS)
 *     export const handle = i18n.handle
 *     export const clientLoader = i18n.clientLoader
 */
export function i18nRoute<N extends string | readonly string[]>(namespaces: N) {
  const list: string[] = typeof namespaces === 'string' ? [namespaces] : [...namespaces]
  return {
    handle: { i18n: namespaces },
    async clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
      const [loaded] = await Promise.all([serverLoader(), i18next.loadNamespaces(list)])
      return loaded
    },
  }
}
