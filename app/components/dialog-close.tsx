import * as Dialog from '@radix-ui/react-dialog'
import { X } from 'lucide-react'

/** A dialog's close button: a cross in its top right corner, named by `label`. */
export function DialogCloseCross({ label }: { label: string }) {
  return (
    <Dialog.Close
      aria-label={label}
      className="absolute right-3 top-3 rounded p-1 text-slate-600 hover:bg-slate-100"
    >
      <X aria-hidden className="h-5 w-5" />
    </Dialog.Close>
  )
}
