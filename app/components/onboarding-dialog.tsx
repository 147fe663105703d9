import * as Dialog from '@radix-ui/react-dialog'
import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { DialogCloseCross } from '~/components/dialog-close.tsx'

/** The window around an onboarding step (app/components/onboarding.tsx loads it when needed). */
export default function OnboardingDialog({
  open,
  onClose,
  titleId,
  fullScreenOnMobile,
  children,
}: {
  open: boolean
  onClose: () => void
  titleId: string
  fullScreenOnMobile?: boolean
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <Dialog.Root open={open} onOpenChange={(value) => (value ? null : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <Dialog.Content
          aria-labelledby={titleId}
          aria-describedby={undefined}
          className={`fixed z-50 overflow-y-auto bg-white p-6 shadow-2xl focus:outline-none ${
            fullScreenOnMobile
              ? 'inset-0 sm:inset-auto sm:left-1/2 sm:top-1/2 sm:max-h-[90vh] sm:w-full sm:max-w-lg sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl'
              : 'left-1/2 top-1/2 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-2xl'
          }`}
        >
          {children}
          <DialogCloseCross label={t('welcome.close')} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
