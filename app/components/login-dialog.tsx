import { Link } from '@remix-run/react'
import { lazy, Suspense, useRef, useState } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { useHydrated } from '~/utils/hooks.ts'
import { loginHref } from '~/utils/login-href.ts'

// The window and its forms (Radix Dialog, conform, zod) are fetched when first wanted: pointing
// at the button or focusing it starts the download, pressing it opens the window once it is here.
const loadWindow = () => import('~/components/login-dialog-window.tsx')
const LoginDialogWindow = lazy(loadWindow)

/**
 * The header's login/register dialog (docs/rules.md#screens). Before hydration, and without
 * JavaScript, the same button is a link to /login.
 */
export function LoginDialog({ redirectTo, className }: { redirectTo: string; className: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const [open, setOpen] = useState(false)
  // Once opened, the window stays mounted (closed) and keeps its state.
  const [wanted, setWanted] = useState(false)
  const trigger = useRef<HTMLButtonElement>(null)
  const href = redirectTo === '/' ? '/login' : loginHref(redirectTo)
  if (!hydrated) {
    return (
      <Link to={href} className={className}>
        {t('nav.login')}
      </Link>
    )
  }
  return (
    <>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        className={className}
        onPointerEnter={() => void loadWindow()}
        onFocus={() => void loadWindow()}
        onClick={() => {
          setWanted(true)
          setOpen(true)
        }}
      >
        {t('nav.login')}
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <LoginDialogWindow
            open={open}
            onOpenChange={setOpen}
            redirectTo={redirectTo}
            trigger={trigger}
          />
        </Suspense>
      ) : null}
    </>
  )
}
