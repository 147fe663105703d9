import type { i18n as I18n, TFunction } from 'i18next'

/**
 * A render asks for the same texts again and again (a page has a hundred or more, each one
 * resolved through namespaces, fallbacks and nesting on every call): a text asked for by its
 * key alone is worked out once per instance and then remembered. Texts with values put in
 * (counts, prices, names) are worked out each time. The instance's texts never change.
 */
export function rememberPlainTexts(instance: I18n): I18n {
  const made = new Map<string, TFunction>()
  const getFixedT = instance.getFixedT.bind(instance) as unknown as (...args: unknown[]) => Untyped
  instance.getFixedT = ((...args: unknown[]) => {
    const id = JSON.stringify(args)
    let fixed = made.get(id)
    if (!fixed) {
      const t = getFixedT(...args)
      const texts = new Map<string, unknown>()
      const remembering = (key: unknown, ...rest: unknown[]) => {
        if (rest.length > 0 || typeof key !== 'string') return t(key, ...rest)
        let text = texts.get(key)
        if (text === undefined) {
          text = t(key)
          texts.set(key, text)
        }
        return text
      }
      fixed = Object.assign(remembering, {
        lng: t.lng,
        ns: t.ns,
        keyPrefix: t.keyPrefix,
      }) as unknown as TFunction
      made.set(id, fixed)
    }
    return fixed
  }) as I18n['getFixedT']
  return instance
}
type Untyped = ((...args: unknown[]) => unknown) & {
  lng?: unknown
  ns?: unknown
  keyPrefix?: unknown
}
