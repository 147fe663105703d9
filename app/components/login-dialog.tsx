import * as Dialog from '@radix-ui/react-dialog'
import { Link, useFetcher } from '@remix-run/react'
import { X } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AuthTabs, type AuthActionData, type AuthTab } from '~/components/auth-forms.tsx'
import { useHydrated } from '~/utils/hooks.ts'

/**
 * The header's login/register dialog (docs/rules.md#screens). Before hydration, and without
 * JavaScript, the same button is a link to /login.
 */
export function LoginDialog({ redirectTo, className }: { redirectTo: string; className: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const [tab, setTab] = useState<AuthTab>('login')
  const fetcher = useFetcher<AuthActionData>()
  const href = redirectTo === '/' ? '/login' : `/login?redirectTo=${encodeURIComponent(redirectTo)}`
  if (!hydrated) {
    return (
      <Link to={href} className={className}>
        {t('nav.login')}
      </Link>
    )
  }
  return (
    <Dialog.Root>
      <Dialog.Trigger className={className}>{t('nav.login')}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 z-50 max-h-[92vh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none"
        >
          <Dialog.Title className="mb-4 text-xl font-bold">{t('auth.dialogTitle')}</Dialog.Title>
          <AuthTabs
            tab={tab}
            onTabChange={setTab}
            redirectTo={redirectTo}
            actionData={fetcher.data && 'intent' in fetcher.data ? fetcher.data : null}
            FormComponent={fetcher.Form}
            busy={fetcher.state !== 'idle'}
            submit={(formData) => fetcher.submit(formData, { method: 'post', action: '/login' })}
            idPrefix="dialog"
          />
          <p className="mt-4 flex flex-wrap justify-center gap-x-4 gap-y-1 border-t border-slate-200 pt-3 text-xs">
            <Link to="/terms-of-service" className="text-slate-700 underline">
              {t('footer.links.termsOfService')}
            </Link>
            <Link to="/privacy-policy" className="text-slate-700 underline">
              {t('footer.links.privacyPolicy')}
            </Link>
          </p>
          <Dialog.Close
            aria-label={t('auth.close')}
            className="absolute right-3 top-3 rounded p-1 text-slate-600 hover:bg-slate-100"
          >
            <X aria-hidden className="h-5 w-5" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
