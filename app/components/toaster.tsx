import { lazy, Suspense, useEffect, useState } from 'react'
import { ToastIcon, toastStyles } from '~/components/toast-look.tsx'
import type { Toast } from '~/validation/toast.ts'
import { useHydrated, useOptionalRootData } from '~/utils/hooks.ts'

// Radix's toast region comes with the page's first toast: most pages never show one.
const ToastRegion = lazy(() => import('~/components/toast-region.tsx'))

// Toasts a page raises on the client (a fetcher's answer) go through this event.
const TOAST_EVENT = 'app:toast'
export function showToast(toast: Omit<Toast, 'id'> & { id?: string }) {
  window.dispatchEvent(
    new CustomEvent(TOAST_EVENT, {
      detail: { ...toast, id: toast.id ?? Math.random().toString(36).slice(2) },
    }),
  )
}

/** A toast as a plain status message: before hydration, and while Radix's region loads. */
function PlainToast({ toast }: { toast: Toast }) {
  return (
    <div
      role={toast.type === 'error' ? 'alert' : 'status'}
      className={`server-toast fixed inset-x-4 bottom-4 z-50 sm:inset-x-auto sm:bottom-auto sm:left-1/2 sm:top-20 sm:w-[24rem] sm:-translate-x-1/2 flex gap-2 rounded-lg border p-4 shadow-lg ${toastStyles[toast.type]}`}
    >
      <ToastIcon type={toast.type} />
      <div>
        {toast.title ? <p className="font-semibold">{toast.title}</p> : null}
        <p className="text-sm">{toast.description}</p>
      </div>
    </div>
  )
}

/**
 * One toast at a time, 5 s, swipe right to dismiss, F8 to focus (docs/rules.md#toasts).
 * Before hydration (and for browsers without JavaScript) a flash toast is printed as a plain
 * status message, since Radix renders toasts only in the browser.
 */
export function Toaster() {
  const hydrated = useHydrated()
  const flash = useOptionalRootData()?.toast ?? null
  const [toast, setToast] = useState<Toast | null>(flash)
  // Once a toast has come, the region stays (empty between toasts).
  const [used, setUsed] = useState(Boolean(flash))

  useEffect(() => {
    if (flash) {
      setToast(flash)
      setUsed(true)
    }
  }, [flash])

  useEffect(() => {
    const onToast = (event: Event) => {
      setToast((event as CustomEvent<Toast>).detail)
      setUsed(true)
    }
    window.addEventListener(TOAST_EVENT, onToast)
    return () => window.removeEventListener(TOAST_EVENT, onToast)
  }, [])

  if (!hydrated) return flash ? <PlainToast toast={flash} /> : null
  if (!used) return null
  return (
    <Suspense fallback={toast ? <PlainToast toast={toast} /> : null}>
      <ToastRegion toast={toast} onClose={() => setToast(null)} />
    </Suspense>
  )
}
