import { Form, useSubmit } from '@remix-run/react'
import { useId } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { supportedLanguages } from '~/i18n/config.ts'
import { useHydrated, useRootData } from '~/utils/hooks.ts'

/** A plain form post (works without JavaScript); with JavaScript it submits on change. */
export function LanguageSwitcher({ className = '' }: { className?: string }) {
  const { t } = useTranslation()
  const { language, path } = useRootData()
  const submit = useSubmit()
  const hydrated = useHydrated()
  const id = useId()
  return (
    <Form method="post" action="/set-language" className={`flex items-center gap-1 ${className}`}>
      <input type="hidden" name="redirectTo" value={path} />
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <select
        id={id}
        name="lng"
        defaultValue={language}
        onChange={(event) => submit(event.currentTarget.form)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800"
      >
        {supportedLanguages.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`language.names.${lng}`)}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button
          type="submit"
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800"
        >
          {t('language.apply')}
        </button>
      )}
    </Form>
  )
}
