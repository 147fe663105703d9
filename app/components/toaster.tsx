import * as ToastPrimitive from '@radix-ui/react-toast'
import { CircleAlert, CircleCheck, Info, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Toast } from '~/services/toast.server.ts'
import { useHydrated, useOptionalRootData } from '~/utils/hooks.ts'

const styles: Record<Toast['type'], string> = {
  message: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  error: 'border-red-300 bg-red-50 text-red-950',
}

function ToastIcon({ type }: { type: Toast['type'] }) {
  const Icon = type === 'success' ? CircleCheck : type === 'error' ? CircleAlert : Info
  return <Icon aria-hidden className="mt-0.5 h-5 w-5 shrink-0" />
}

// Toasts a page raises on the client (a fetcher's answer) go through this event.
const TOAST_EVENT = 'app:toast'
export function showToast(toast: Omit<Toast, 'id'> & { id?: string }) {
  window.dispatchEvent(
    new CustomEvent(TOAST_EVENT, {
      detail: { ...toast, id: toast.id ?? Math.random().toString(36).slice(2) },
    }),
  )
}

/**
 * One toast at a time, 5 s, swipe right to dismiss, F8 to focus (docs/rules.md#toasts).
 * Before hydration (and for browsers without JavaScript) a flash toast is printed as a plain
 * status message, since Radix renders toasts only in the browser.
 */
export function Toaster() {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const flash = useOptionalRootData()?.toast ?? null
  const [toast, setToast] = useState<Toast | null>(flash)

  useEffect(() => {
    if (flash) setToast(flash)
  }, [flash])

  useEffect(() => {
    const onToast = (event: Event) => setToast((event as CustomEvent<Toast>).detail)
    window.addEventListener(TOAST_EVENT, onToast)
    return () => window.removeEventListener(TOAST_EVENT, onToast)
  }, [])

  if (!hydrated) {
    return flash ? (
      <div
        role={flash.type === 'error' ? 'alert' : 'status'}
        className={`server-toast fixed inset-x-4 bottom-4 z-50 sm:inset-x-auto sm:bottom-auto sm:left-1/2 sm:top-20 sm:w-[24rem] sm:-translate-x-1/2 flex gap-2 rounded-lg border p-4 shadow-lg ${styles[flash.type]}`}
      >
        <ToastIcon type={flash.type} />
        <div>
          {flash.title ? <p className="font-semibold">{flash.title}</p> : null}
          <p className="text-sm">{flash.description}</p>
        </div>
      </div>
    ) : null
  }

  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {toast ? (
        <ToastPrimitive.Root
          key={toast.id}
          type={toast.type === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) setToast(null)
          }}
          className={`flex gap-2 rounded-lg border p-4 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] ${styles[toast.type]}`}
        >
          <ToastIcon type={toast.type} />
          <div className="flex-1">
            {toast.title ? (
              <ToastPrimitive.Title className="font-semibold">{toast.title}</ToastPrimitive.Title>
            ) : null}
            <ToastPrimitive.Description className="text-sm">
              {toast.description}
            </ToastPrimitive.Description>
          </div>
          <ToastPrimitive.Close
            aria-label={t('toast.close')}
            className="rounded p-1 hover:bg-black/5"
          >
            <X aria-hidden className="h-4 w-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ) : null}
      <ToastPrimitive.Viewport
        label={t('toast.region')}
        className="fixed inset-x-4 bottom-4 z-50 sm:inset-x-auto sm:bottom-auto sm:left-1/2 sm:top-20 sm:w-[24rem] sm:-translate-x-1/2 flex flex-col gap-2 outline-none"
      />
    </ToastPrimitive.Provider>
  )
}
