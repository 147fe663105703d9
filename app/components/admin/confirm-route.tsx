import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import { Alert } from '~/components/ui/alert.tsx'
import { Button, buttonClass } from '~/components/ui/button.tsx'
import { useIsPending } from '~/utils/use-is-pending.ts'

/** A confirmation's texts: its title, what will happen, its button (none: nothing to confirm). */
export type ConfirmTexts = { title: string; description: string; confirm: string | null }

/**
 * The page half of a confirmation route (app/services/confirm-route.server.ts): the dialog with
 * the texts, the address to close to and the element to focus then that its loader wrote. A
 * route takes it, with the error view, in one line:
 *
 *     export { ConfirmRoute as default, ErrorBoundary } from '~/components/admin/confirm-route.tsx'
 */
export function ConfirmRoute() {
  const { texts, closeTo, returnFocusTo } = useLoaderData<{
    texts: ConfirmTexts
    closeTo: string
    returnFocusTo: string | null
  }>()
  return (
    <ConfirmDialog
      title={texts.title}
      description={texts.description}
      confirmLabel={texts.confirm}
      closeTo={closeTo}
      returnFocusTo={returnFocusTo ?? undefined}
    />
  )
}

export { GeneralErrorBoundary as ErrorBoundary } from '~/components/error-boundary.tsx'

/**
 * A confirmation dialog over the list saying what will happen, the reason a refused attempt
 * gave, and a form posting to this route (with `children` as its fields, a refund's reason) or,
 * without `confirmLabel`, no form at all (nothing to confirm: the thing is gone or may not be
 * touched). Without JavaScript it is a section of the page and the form a plain post.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  cancelLabel,
  closeTo,
  returnFocusTo,
  children,
}: {
  title: string
  description: string
  confirmLabel: string | null
  cancelLabel?: string
  /** The list the dialog opened over, its query kept. */
  closeTo: string
  /** The element (id) that gets focus when the opener is gone. */
  returnFocusTo?: string
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const actionData = useActionData<{ error?: string }>()
  const pending = useIsPending()
  const buttons = (
    <div className="flex flex-wrap justify-end gap-2">
      <Link to={closeTo} preventScrollReset className={buttonClass({ variant: 'outline' })}>
        {cancelLabel ?? t('profile.cancel')}
      </Link>
      <Button variant="danger" pending={pending}>
        {confirmLabel}
      </Button>
    </div>
  )
  return (
    <UrlDialog
      open
      closeTo={closeTo}
      title={title}
      description={description}
      returnFocusTo={returnFocusTo}
    >
      {actionData?.error ? <Alert className="mb-3">{actionData.error}</Alert> : null}
      {confirmLabel === null ? null : (
        <Form method="post" className="space-y-3">
          {children}
          {buttons}
        </Form>
      )}
    </UrlDialog>
  )
}
