import * as Dialog from '@radix-ui/react-dialog'
import { Form, Link, useNavigate, useNavigation } from '@remix-run/react'
import { X } from 'lucide-react'
import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from '~/utils/hooks.ts'

/**
 * A dialog whose open state is the URL (`?edit=ID`, `?create=1`, `?confirm=…`): a Link opens
 * it, closing goes to `closeTo`. With JavaScript it is a Radix dialog; without, the same content
 * is a section in the page (a server render cannot portal), so every admin action works
 * both ways.
 */
export function UrlDialog({
  open,
  closeTo,
  title,
  description,
  wide,
  children,
}: {
  open: boolean
  closeTo: string
  title: string
  description?: string
  wide?: boolean
  children: ReactNode
}) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const titleId = useId()
  if (!open) return null
  if (!hydrated) {
    return (
      <section
        aria-labelledby={titleId}
        className="my-6 rounded-xl border-2 border-amber-300 bg-white p-5 shadow-sm"
      >
        <div className="mb-3 flex items-start justify-between gap-3">
          <h2 id={titleId} className="text-xl font-bold">
            {title}
          </h2>
          <Link
            to={closeTo}
            preventScrollReset
            className="rounded-md border border-slate-300 px-3 py-1 text-sm font-semibold"
          >
            {t('errors.close')}
          </Link>
        </div>
        {description ? <p className="mb-3 text-slate-700">{description}</p> : null}
        {children}
      </section>
    )
  }
  return (
    <Dialog.Root
      open
      onOpenChange={(value) => {
        if (!value) navigate(closeTo, { preventScrollReset: true, replace: true })
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <Dialog.Content
          aria-labelledby={titleId}
          aria-describedby={undefined}
          className={`fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none ${wide ? 'max-w-3xl' : 'max-w-lg'}`}
        >
          <Dialog.Title id={titleId} className="mb-3 pr-8 text-xl font-bold">
            {title}
          </Dialog.Title>
          {description ? (
            <Dialog.Description className="mb-3 text-slate-700">{description}</Dialog.Description>
          ) : null}
          {children}
          <Dialog.Close
            aria-label={t('errors.close')}
            className="absolute right-3 top-3 rounded p-1 text-slate-600 hover:bg-slate-100"
          >
            <X aria-hidden className="h-5 w-5" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/**
 * The confirmation step of a destructive action: a post with `intent` and `id` (and a cancel
 * link). Used inside a UrlDialog opened by `?confirm=…`.
 */
export function ConfirmForm({
  intent,
  id,
  action,
  confirmLabel,
  cancelTo,
}: {
  intent: string
  id: string
  action?: string
  confirmLabel: string
  cancelTo: string
}) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
  return (
    <Form method="post" action={action} className="flex flex-wrap justify-end gap-2">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Link
        to={cancelTo}
        preventScrollReset
        className="rounded-md border border-slate-300 px-4 py-2 font-semibold hover:bg-slate-50"
      >
        {t('profile.cancel')}
      </Link>
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-70"
      >
        {confirmLabel}
      </button>
    </Form>
  )
}
