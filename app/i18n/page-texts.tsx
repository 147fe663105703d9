import { useMatches } from '@remix-run/react'
import type { i18n as I18n, ResourceLanguage } from 'i18next'
import { defaultNS } from '~/i18n/config.ts'
import { useTranslation } from '~/i18n/use-translation.ts'

// The texts a page is rendered with travel inside its document, as a JSON block read before
// hydrating (app/entry.client.tsx): the language's bundles of the namespaces the page's routes name
// (their `handle.i18n`) and the default one. Fetched as script chunks instead, they
// were a round trip after the entry script and before hydration: more than a second on a slow
// phone (docs/decisions/087-texts-in-the-document.md). A client-side navigation to a route with
// other namespaces still loads them as chunks (app/utils/i18n-route.ts).

const ID = 'page-texts'

/** The block's text as the server wrote it, read once in the browser and rendered the same. */
let written: string | undefined

export function PageTexts() {
  const { i18n } = useTranslation()
  const matches = useMatches()
  const json =
    typeof document === 'undefined'
      ? textsJson(i18n, [defaultNS, ...matches.flatMap(({ handle }) => routeNamespaces(handle))])
      : (written ??= readWritten())
  return <script id={ID} type="application/json" dangerouslySetInnerHTML={{ __html: json }} />
}

/** The namespaces a route's `handle.i18n` names (app/utils/i18n-route.ts). */
function routeNamespaces(handle: unknown): string[] {
  const named = (handle as { i18n?: unknown } | undefined)?.i18n
  if (typeof named === 'string') return [named]
  return Array.isArray(named) ? named.filter((ns) => typeof ns === 'string') : []
}

/**
 * The server's blocks, one per language and set of namespaces, written once: the texts never
 * change while the process runs, and a block is tens of KiB of JSON to make for every page.
 */
const blocks = new Map<string, string>()

function textsJson(i18n: I18n, namespaces: string[]): string {
  const unique = [...new Set(namespaces)]
  const key = `${i18n.language}|${unique.join(',')}`
  let json = blocks.get(key)
  if (json === undefined) {
    const bundles: ResourceLanguage = {}
    for (const ns of unique) {
      const bundle = i18n.getResourceBundle(i18n.language, ns) as
        ResourceLanguage[string] | undefined
      if (bundle) bundles[ns] = bundle
    }
    // `<` escaped so that no text can end the script element; JSON reads `\u003c` back as `<`.
    json = JSON.stringify(bundles).replace(/</g, '\\u003c')
    blocks.set(key, json)
  }
  return json
}

function readWritten(): string {
  return document.getElementById(ID)?.textContent ?? '{}'
}

/** The texts the server wrote into the document, by namespace (the browser's side). */
export function readPageTexts(): ResourceLanguage {
  try {
    return JSON.parse((written ??= readWritten())) as ResourceLanguage
  } catch {
    return {}
  }
}
