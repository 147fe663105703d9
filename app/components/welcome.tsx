import { Link } from '@remix-run/react'
import { Gift, Lightbulb, PartyPopper } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { useRootData } from '~/utils/hooks.ts'
import { buttonClass } from '~/components/ui/button.tsx'

// The welcome a new member sees once (docs/rules.md#onboarding): in the onboarding dialog
// (app/components/onboarding.tsx) and, as a plain page, at /welcome-preview.

export function WelcomeContent({ titleId, onClose }: { titleId: string; onClose?: () => void }) {
  const { t } = useTranslation()
  const { user } = useRootData()
  return (
    <WelcomeBody
      titleId={titleId}
      title={t('welcome.title', { username: user?.username ?? '' })}
      // Right after registration an empty balance means the free bids wait for a verified phone
      // (docs/rules.md#registration).
      gift={t(user?.bidBalance === 0 ? 'welcome.giftOnPhone' : 'welcome.gift', { count: 5 })}
    >
      <Link to="/auctions" onClick={onClose} className={buttonClass()}>
        {t('welcome.toAuctions')}
      </Link>
      <Link to="/how-it-works" onClick={onClose} className={buttonClass({ variant: 'clear' })}>
        {t('welcome.howItWorks')}
      </Link>
    </WelcomeBody>
  )
}

/**
 * The welcome's frame: its title, the gift, the tips (the dialog's own texts, which the guest's
 * preview shows too, app/routes/welcome-preview.tsx) and its links (`children`).
 */
export function WelcomeBody({
  titleId,
  title,
  gift,
  children,
}: {
  titleId: string
  title: string
  gift: string
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <div>
      <PartyPopper aria-hidden className="welcome-icon mb-3 h-10 w-10 text-amber-600" />
      <h2 id={titleId} className="text-2xl font-bold">
        {title}
      </h2>
      <p className="mt-3 flex items-center gap-2 rounded-lg bg-white/70 p-3 font-medium text-amber-900">
        <Gift aria-hidden className="h-5 w-5 shrink-0" />
        {gift}
      </p>
      <h3 className="mt-4 flex items-center gap-2 font-semibold">
        <Lightbulb aria-hidden className="h-4 w-4" />
        {t('welcome.tipsTitle')}
      </h3>
      <ul className="mt-2 list-disc space-y-1 pl-6 text-sm text-slate-700">
        <li>{t('welcome.tips.one')}</li>
        <li>{t('welcome.tips.two')}</li>
        <li>{t('welcome.tips.three')}</li>
      </ul>
      <div className="mt-5 flex flex-wrap gap-2">{children}</div>
    </div>
  )
}
