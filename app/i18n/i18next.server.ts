import { RemixI18Next } from 'remix-i18next/server'
import {
  fallbackLanguage,
  i18nOptions,
  isLanguage,
  supportedLanguages,
  type Language,
} from '~/i18n/config.ts'
import { languageCookie, languageFromCookie, pickFromAcceptLanguage } from '~/i18n/detect.server.ts'
import { resources } from '~/i18n/resources.server.ts'
import { getSettings } from '~/models/settings.server.ts'

export const i18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    cookie: languageCookie,
    order: ['cookie', 'header'],
  },
  i18next: { ...i18nOptions, resources },
})

/**
 * The request's interface language: the visitor's choice (cookie), then the browser's
 * Accept-Language when it names a language we have, then the site's default language
 * from the settings, then ru. See docs/decisions/005-language-choice.md.
 */
export async function getLanguage(request: Request): Promise<Language> {
  return languageOf(request.headers.get('Cookie'), request.headers.get('Accept-Language'))
}

/** getLanguage for a raw Cookie and Accept-Language header. */
export async function languageOf(
  cookie: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Promise<Language> {
  const chosen = await languageFromCookie(cookie ?? null)
  if (chosen) return chosen
  const fromHeader = pickFromAcceptLanguage(acceptLanguage ?? null)
  if (fromHeader) return fromHeader
  const { language } = await getSettings()
  return isLanguage(language) ? language : fallbackLanguage
}

/** A translation function for server-side messages (API errors, page titles, toasts). */
export async function getFixedT(
  request: Request | Language,
  ns?: string | readonly [string, ...string[]],
) {
  const language = typeof request === 'string' ? request : await getLanguage(request)
  // One translation function per language and namespaces, made once: the texts never change
  // while the process runs, and making one costs a new i18next instance.
  const key = `${language}|${typeof ns === 'string' ? ns : (ns ?? []).join(',')}`
  let t = fixedTs.get(key)
  if (!t) {
    t = i18next.getFixedT(language, ns)
    fixedTs.set(key, t)
  }
  return t
}

const fixedTs = new Map<string, ReturnType<typeof i18next.getFixedT>>()
