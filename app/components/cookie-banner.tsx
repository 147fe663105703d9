import { Form } from '@remix-run/react'
import { Cookie, X } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { useRootData } from '~/utils/hooks.ts'

const optionalCategories = ['analytics', 'functional', 'marketing'] as const

/**
 * docs/rules.md#cookies-and-consent: shown 2 s after load while no choice is stored. The delay is a CSS
 * animation, so it holds without JavaScript too; every button is a plain form post that reloads
 * the page, so a tag manager allowed by the choice loads at once.
 */
export function CookieBanner() {
  const { t } = useTranslation()
  const { consent, path } = useRootData()
  if (consent) return null
  return (
    <section
      aria-labelledby="cookie-banner-title"
      className="cookie-banner fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white p-4 shadow-2xl sm:inset-x-auto sm:bottom-4 sm:right-4 sm:max-w-md sm:rounded-xl sm:border"
    >
      <Form method="post" action="/cookie-consent" reloadDocument>
        <input type="hidden" name="redirectTo" value={path} />
        <div className="flex items-start gap-3">
          <Cookie aria-hidden className="mt-1 h-6 w-6 shrink-0 text-amber-600" />
          <div className="min-w-0 flex-1">
            <h2 id="cookie-banner-title" className="font-semibold">
              {t('cookies.title')}
            </h2>
            <p className="mt-1 text-sm text-slate-700">{t('cookies.text')}</p>
          </div>
          <button
            type="submit"
            name="choice"
            value="reject"
            className="rounded-md p-1 text-slate-600 hover:bg-slate-100"
            aria-label={t('cookies.close')}
          >
            <X aria-hidden className="h-5 w-5" />
          </button>
        </div>

        <details className="mt-3 rounded-lg border border-slate-200 p-3 text-sm">
          <summary className="cursor-pointer font-medium">{t('cookies.settings')}</summary>
          <fieldset className="mt-2 space-y-2">
            <legend className="sr-only">{t('cookies.categoriesLegend')}</legend>
            <label className="flex items-start gap-2">
              <input type="checkbox" checked disabled className="mt-1" />
              <span>
                <span className="font-medium">{t('cookies.categories.necessary')}</span>
                <span className="block text-slate-600">{t('cookies.descriptions.necessary')}</span>
              </span>
            </label>
            {optionalCategories.map((category) => (
              <label key={category} className="flex items-start gap-2">
                <input type="checkbox" name={category} value="on" className="mt-1" />
                <span>
                  <span className="font-medium">{t(`cookies.categories.${category}`)}</span>
                  <span className="block text-slate-600">
                    {t(`cookies.descriptions.${category}`)}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <button
            type="submit"
            name="choice"
            value="custom"
            className="mt-3 rounded-md border border-slate-300 px-3 py-2 font-medium hover:bg-slate-50"
          >
            {t('cookies.save')}
          </button>
        </details>

        <div className="mt-3 flex flex-wrap justify-end gap-2">
          <button
            type="submit"
            name="choice"
            value="necessary-only"
            className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50"
          >
            {t('cookies.onlyNecessary')}
          </button>
          <button
            type="submit"
            name="choice"
            value="accept-all"
            className="rounded-md bg-amber-700 px-3 py-2 text-sm font-semibold text-white hover:bg-amber-800"
          >
            {t('cookies.acceptAll')}
          </button>
        </div>
      </Form>
    </section>
  )
}
