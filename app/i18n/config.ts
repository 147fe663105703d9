// Interface languages: ru is the default and the source; en, ka and ky are complete
// translations. A missing key falls back to ru, then to the key itself.
export const supportedLanguages = ['ru', 'en', 'ka', 'ky'] as const
export type Language = (typeof supportedLanguages)[number]
export const fallbackLanguage: Language = 'ru'
export const defaultNS = 'common'
export const namespaces = ['common', 'pages'] as const

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value)
}

export const i18nOptions = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS,
  interpolation: { escapeValue: false },
  returnNull: false,
} as const
