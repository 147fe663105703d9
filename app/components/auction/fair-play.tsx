import { Link } from '@remix-run/react'
import { Lock, Sprout, Timer } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { AuctionCardView } from '~/models/auction-card.ts'

// The fair-play settings of an auction as a visitor sees them (docs/rules.md#fair-play-auctions):
// badges on its card and its page ("for beginners", "locks after N min", then "closed to new
// bidders"), and on its page what they mean. Each is said in words; colour only repeats it.

type FairPlayAuction = Pick<
  AuctionCardView,
  'status' | 'beginnerOnly' | 'lockAfterMinutes' | 'lockIn' | 'locked'
>

/** The badges' texts (a grid translates them once for all its cards). */
export type FairPlayLabels = {
  beginner: string
  locksAfter: (minutes: number) => string
  locked: string
}

/** The longest wait a browser timer takes (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1

/**
 * Whether the auction is closed to new bidders now: as the server said, or once its `lockIn`
 * has passed since then, counted by a timer (not the phone's clock, which may be wrong).
 */
export function useLocked(auction: FairPlayAuction): boolean {
  const { lockIn, locked } = auction
  const [passed, setPassed] = useState(false)
  useEffect(() => {
    setPassed(false)
    if (lockIn === null || locked || lockIn > MAX_TIMEOUT_MS) return
    const timer = setTimeout(() => setPassed(true), lockIn)
    return () => clearTimeout(timer)
  }, [lockIn, locked])
  return auction.status === 'live' && (locked || passed)
}

/** The badges' texts, the same object until the language changes. */
export function useFairPlayLabels(): FairPlayLabels {
  const { t } = useTranslation()
  return useMemo(
    () => ({
      beginner: t('auction.fairPlay.beginner'),
      locksAfter: (minutes: number) => t('auction.fairPlay.locksAfter', { minutes }),
      locked: t('auction.fairPlay.locked'),
    }),
    [t],
  )
}

const badge =
  'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold leading-5'

/** The auction's fair-play badges, or nothing when it has none (or has finished). */
export function FairPlayBadges({
  auction,
  labels,
}: {
  auction: FairPlayAuction
  labels: FairPlayLabels
}) {
  const locked = useLocked(auction)
  if (auction.status === 'finished') return null
  const closes = auction.lockAfterMinutes
  if (!auction.beginnerOnly && closes === null) return null
  return (
    <ul className="flex flex-wrap gap-1.5">
      {auction.beginnerOnly ? (
        <li className={`${badge} border-emerald-300 bg-emerald-50 text-emerald-900`}>
          <Sprout aria-hidden className="h-3.5 w-3.5 shrink-0" />
          {labels.beginner}
        </li>
      ) : null}
      {closes === null ? null : locked ? (
        <li className={`${badge} border-slate-400 bg-slate-100 text-slate-900`}>
          <Lock aria-hidden className="h-3.5 w-3.5 shrink-0" />
          {labels.locked}
        </li>
      ) : (
        <li className={`${badge} border-sky-300 bg-sky-50 text-sky-900`}>
          <Timer aria-hidden className="h-3.5 w-3.5 shrink-0" />
          {labels.locksAfter(closes)}
        </li>
      )}
    </ul>
  )
}

/** The auction page's badges with what they mean, and the way to the rules. */
export function FairPlayNotice({ auction }: { auction: FairPlayAuction }) {
  const { t } = useTranslation()
  const labels = useFairPlayLabels()
  const locked = useLocked(auction)
  const closes = auction.lockAfterMinutes
  if (auction.status === 'finished' || (!auction.beginnerOnly && closes === null)) return null
  return (
    <section
      aria-label={t('auction.fairPlay.title')}
      className="space-y-2 rounded-xl border border-slate-200 bg-white p-3 text-sm text-slate-800"
    >
      <FairPlayBadges auction={auction} labels={labels} />
      <ul className="space-y-1">
        {auction.beginnerOnly ? <li>{t('auction.fairPlay.beginnerNote')}</li> : null}
        {closes === null ? null : (
          <li>
            {locked
              ? t('auction.fairPlay.lockedNote')
              : t('auction.fairPlay.locksAfterNote', { minutes: closes })}
          </li>
        )}
      </ul>
      <Link
        to="/auction-rules#fair-play"
        className="inline-block font-medium text-amber-800 underline underline-offset-2"
      >
        {t('auction.fairPlay.rulesLink')}
      </Link>
    </section>
  )
}
