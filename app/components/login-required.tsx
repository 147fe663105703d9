import { Link, useLocation, useNavigate } from '@remix-run/react'
import { LockKeyhole } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { useHydrated } from '~/utils/hooks.ts'
import { loginHref } from '~/utils/login-href.ts'

const button =
  'rounded-md px-4 py-2 font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400'

/**
 * The "login required" state of personal pages (profile has a home button, bid
 * history a back button); both also offer the login page, which brings the user back here.
 */
export function LoginRequired({ text, back }: { text: string; back: 'home' | 'back' }) {
  const { t } = useTranslation()
  const location = useLocation()
  const navigate = useNavigate()
  const hydrated = useHydrated()
  const loginTo = loginHref(location.pathname)
  return (
    <section className="mx-auto max-w-md py-12 text-center" aria-labelledby="login-required">
      <LockKeyhole aria-hidden className="mx-auto h-10 w-10 text-amber-700" />
      <h1 id="login-required" className="mt-3 text-2xl font-bold">
        {t('errors.loginRequired')}
      </h1>
      <p className="mt-2 text-slate-700">{text}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to={loginTo} className={`${button} bg-amber-700 text-white hover:bg-amber-800`}>
          {t('nav.login')}
        </Link>
        {back === 'back' && hydrated ? (
          <button
            type="button"
            onClick={() => navigate(-1)}
            className={`${button} border border-slate-300 hover:bg-slate-50`}
          >
            {t('errors.back')}
          </button>
        ) : (
          <Link to="/" className={`${button} border border-slate-300 hover:bg-slate-50`}>
            {back === 'back' ? t('errors.back') : t('errors.backHome')}
          </Link>
        )}
      </div>
    </section>
  )
}
