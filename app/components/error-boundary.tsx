import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'

/** The one error view every route's ErrorBoundary uses. */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  const { t } = useTranslation()
  if (typeof document !== 'undefined' && !isRouteErrorResponse(error)) console.error(error)

  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />

  const status = isRouteErrorResponse(error) ? error.status : 500
  const message =
    isRouteErrorResponse(error) &&
    typeof error.data === 'string' &&
    (status < 500 || status === 503)
      ? error.data
      : t('errors.unexpected')
  return (
    <section className="mx-auto max-w-xl py-12 text-center" aria-labelledby="error-title">
      <p className="text-5xl font-black text-amber-600">{status}</p>
      <h1 id="error-title" className="mt-4 text-2xl font-bold">
        {status >= 500 ? t('errors.serverTitle') : t('errors.requestTitle')}
      </h1>
      <p className="mt-2 text-slate-700">{message}</p>
      <BackHome />
    </section>
  )
}

export function NotFound() {
  const { t } = useTranslation()
  return (
    <section className="mx-auto max-w-xl py-12 text-center" aria-labelledby="not-found-title">
      <h1 id="not-found-title" className="text-3xl font-black">
        {t('notFound.title')}
      </h1>
      <p className="mt-3 text-slate-700">{t('notFound.text')}</p>
      <BackHome />
    </section>
  )
}

function BackHome() {
  const { t } = useTranslation()
  return (
    <Link
      to="/"
      className="mt-6 inline-block rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800"
    >
      {t('errors.backHome')}
    </Link>
  )
}
