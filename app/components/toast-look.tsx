import { CircleAlert, CircleCheck, Info } from 'lucide-react'
import type { Toast } from '~/validation/toast.ts'

// A toast's look, the same as a plain status message (app/components/toaster.tsx) and in Radix's
// region (app/components/toast-region.tsx).

export const toastStyles: Record<Toast['type'], string> = {
  message: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  error: 'border-red-300 bg-red-50 text-red-950',
}

export function ToastIcon({ type }: { type: Toast['type'] }) {
  const Icon = type === 'success' ? CircleCheck : type === 'error' ? CircleAlert : Info
  return <Icon aria-hidden className="mt-0.5 h-5 w-5 shrink-0" />
}
