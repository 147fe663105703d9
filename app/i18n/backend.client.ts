import type { BackendModule, ReadCallback } from 'i18next'

// Each language and namespace is its own chunk, fetched only when that language is used.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json')

export const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = loaders[`../locales/${language}/${namespace}.json`]
    if (!load) return callback(null, {})
    load().then(
      (module) => callback(null, module.default as never),
      (error: Error) => callback(error, false),
    )
  },
}
