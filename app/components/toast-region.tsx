import * as ToastPrimitive from '@radix-ui/react-toast'
import { X } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { ToastIcon, toastStyles } from '~/components/toast-look.tsx'
import type { Toast } from '~/validation/toast.ts'

/**
 * Radix's toast region, loaded by app/components/toaster.tsx with the page's first toast: one
 * toast at a time, 5 s, swipe right to dismiss, F8 to focus.
 */
export default function ToastRegion({
  toast,
  onClose,
}: {
  toast: Toast | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {toast ? (
        <ToastPrimitive.Root
          key={toast.id}
          type={toast.type === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) onClose()
          }}
          className={`flex gap-2 rounded-lg border p-4 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] ${toastStyles[toast.type]}`}
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
