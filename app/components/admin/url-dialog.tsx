import * as Dialog from '@radix-ui/react-dialog'
import { Link, useNavigate } from '@remix-run/react'
import { useId, useState, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { useHydrated } from '~/utils/hooks.ts'
import { DialogCloseCross } from '~/components/dialog-close.tsx'

/**
 * A dialog whose open state is the URL (a child route of the page it opens over, like
 * /admin/auctions/new or /admin/users/ID/edit): a Link opens it, closing goes to `closeTo`. With JavaScript it is
 * a Radix dialog; without, the same content is a section in the page (a server render cannot
 * portal), so every admin action works both ways. On closing, focus goes back to the link that
 * opened it or, when that link is gone (its row was deleted), to the element `returnFocusTo`
 * names by id.
 */
export function UrlDialog({
  open,
  closeTo,
  title,
  description,
  wide,
  returnFocusTo,
  children,
}: {
  open: boolean
  closeTo: string
  title: string
  description?: string
  wide?: boolean
  returnFocusTo?: string
  children: ReactNode
}) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const titleId = useId()
  // The link that opened the dialog still has focus when the dialog first renders.
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  )
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
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            returnFocus(opener, returnFocusTo)
          }}
          className={`fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none ${wide ? 'max-w-3xl' : 'max-w-lg'}`}
        >
          <Dialog.Title id={titleId} className="mb-3 pr-8 text-xl font-bold">
            {title}
          </Dialog.Title>
          {description ? (
            <Dialog.Description className="mb-3 text-slate-700">{description}</Dialog.Description>
          ) : null}
          {children}
          <DialogCloseCross label={t('errors.close')} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** Where focus goes when a dialog closes: its opener if still on the page, else the fallback. */
function returnFocus(opener: HTMLElement | null, fallbackId: string | undefined) {
  if (opener?.isConnected && opener !== document.body) {
    opener.focus({ preventScroll: true })
    return
  }
  const fallback = fallbackId ? document.getElementById(fallbackId) : null
  if (!fallback) return
  if (!fallback.hasAttribute('tabindex')) fallback.setAttribute('tabindex', '-1')
  fallback.focus({ preventScroll: true })
}

/**
 * A dialog route that shows one thing's details over its list (a user's activity, an auction's
 * statistics): `children`, or, when they could not be read (null), `failed` as an alert.
 */
export function DetailsDialog({
  title,
  closeTo,
  failed,
  children,
}: {
  title: string
  closeTo: string
  failed: string
  children: ReactNode | null
}) {
  return (
    <UrlDialog open wide closeTo={closeTo} title={title}>
      {children ?? (
        <p role="alert" className="text-red-700">
          {failed}
        </p>
      )}
    </UrlDialog>
  )
}
