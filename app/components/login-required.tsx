import { Link, useLocation, useNavigate } from '@remix-run/react'
import { LockKeyhole } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { useHydrated } from '~/utils/hooks.ts'
import { loginHref } from '~/utils/login-href.ts'
import { Button, buttonClass } from '~/components/ui/button.tsx'

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
        <Link to={loginTo} className={buttonClass()}>
          {t('nav.login')}
        </Link>
        {back === 'back' && hydrated ? (
          <Button type="button" variant="clear" onClick={() => navigate(-1)}>
            {t('errors.back')}
          </Button>
        ) : (
          <Link to="/" className={buttonClass({ variant: 'clear' })}>
            {back === 'back' ? t('errors.back') : t('errors.backHome')}
          </Link>
        )}
      </div>
    </section>
  )
}
