import { Link } from '@remix-run/react'

import { buttonClass, SaveButton } from '~/components/ui/button.tsx'

/** A form's last row: a link back that cancels, and its submit button, spinning while it saves. */
export function FormActions({
  cancelTo,
  cancelLabel,
  saveLabel,
  saving,
}: {
  cancelTo: string
  cancelLabel: string
  saveLabel: string
  saving: boolean
}) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Link to={cancelTo} preventScrollReset className={buttonClass({ variant: 'outline' })}>
        {cancelLabel}
      </Link>
      <SaveButton pending={saving}>{saveLabel}</SaveButton>
    </div>
  )
}
