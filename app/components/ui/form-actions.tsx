import { Link } from '@remix-run/react'
import { Loader2 } from 'lucide-react'
import { Button, buttonClass } from '~/components/ui/button.tsx'

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
      <Button pending={saving}>
        {saving ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
        {saveLabel}
      </Button>
    </div>
  )
}
