import { useMemo } from 'react'
// eslint-disable-next-line no-restricted-imports -- the one place that wraps it
import { useTranslation as useI18nextTranslation } from 'react-i18next'
import type { i18n as I18n } from 'i18next'

// react-i18next's useTranslation, whose `t` remembers the texts it has resolved.
//
// A page's visible texts are `t('key')` calls, and i18next resolves each one anew on every
// render (key parsing, the language's fallback chain, nesting and interpolation checks): several
// microseconds a call, hundreds of calls a page. A text without options depends only on the
// instance, its language, the namespaces and the key, and translations do not change while a
// page runs, so each such text is resolved once per language and kept (a few thousand strings
// at most: the keys the site has, per language). Calls with options (counts, values) and calls
// made before the namespaces are loaded go to i18next every time.
// docs/performance.md (eleventh round) has the figures.

type Texts = Map<string, string>
const remembered = new WeakMap<I18n, Map<string, Texts>>()

function textsOf(i18n: I18n, scope: string): Texts {
  let scopes = remembered.get(i18n)
  if (!scopes) {
    scopes = new Map()
    remembered.set(i18n, scopes)
  }
  let texts = scopes.get(scope)
  if (!texts) {
    texts = new Map()
    scopes.set(scope, texts)
  }
  return texts
}

export const useTranslation: typeof useI18nextTranslation = (ns, options) => {
  const result = useI18nextTranslation(ns, options)
  const { t, i18n, ready } = result
  const scope = `${i18n.language}|${String(ns ?? '')}|${String(options?.keyPrefix ?? '')}`
  const rememberingT = useMemo(() => {
    if (!ready || options?.lng || typeof i18n.language !== 'string') return t
    const texts = textsOf(i18n, scope)
    const language = i18n.language
    const resolve = t as unknown as (...args: unknown[]) => unknown
    // What i18next's function carries (its language and namespaces, which <Trans t={t}> reads)
    // is carried by this one too.
    return Object.assign(function translate(...args: unknown[]) {
      const [key] = args
      // A call with options, or one made after the language changed and before this component
      // rendered again (an event handler kept from before), is not kept.
      if (args.length !== 1 || typeof key !== 'string' || i18n.language !== language) {
        return resolve(...args)
      }
      let text = texts.get(key)
      if (text === undefined) {
        const resolved = resolve(key)
        if (typeof resolved !== 'string') return resolved
        text = resolved
        texts.set(key, text)
      }
      return text
    }, t) as unknown as typeof t
  }, [t, i18n, ready, scope, options?.lng])
  const response = [rememberingT, i18n, ready] as unknown as typeof result
  response.t = rememberingT
  response.i18n = i18n
  response.ready = ready
  return response
}
