import * as Dialog from '@radix-ui/react-dialog'
import { Link, useFetcher } from '@remix-run/react'
import { useState, type RefObject } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuthTabs, type AuthActionData, type AuthTab } from '~/components/auth-forms.tsx'
import { DialogCloseCross } from '~/components/dialog-close.tsx'
import { useIsPending } from '~/utils/use-is-pending.ts'

/**
 * The login/register dialog's window: loaded by app/components/login-dialog.tsx when the header's
 * button is first pressed, and kept mounted after it, so that the tab and the fetcher's answer
 * stay as they were when it is opened again.
 */
export default function LoginDialogWindow({
  open,
  onOpenChange,
  redirectTo,
  trigger,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  redirectTo: string
  /** The header's button, which gets the focus back when the dialog closes. */
  trigger: RefObject<HTMLButtonElement | null>
}) {
  const { t } = useTranslation()
  const [tab, setTab] = useState<AuthTab>('login')
  const fetcher = useFetcher<AuthActionData>()
  const busy = useIsPending({ fetcher })
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            trigger.current?.focus()
          }}
          className="fixed left-1/2 top-1/2 z-50 max-h-[92vh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none"
        >
          <Dialog.Title className="mb-4 text-xl font-bold">{t('auth.dialogTitle')}</Dialog.Title>
          <AuthTabs
            tab={tab}
            onTabChange={setTab}
            redirectTo={redirectTo}
            actionData={fetcher.data && 'intent' in fetcher.data ? fetcher.data : null}
            FormComponent={fetcher.Form}
            busy={busy}
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
          <DialogCloseCross label={t('auth.close')} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
