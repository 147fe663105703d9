import type { TFunction } from 'i18next'
import { z } from 'zod'
import { AUTO_BID_MAX, type AutoBidStatus, type Engine } from '../../engine/index.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { FAIR_PLAY_STATUS } from '~/utils/fair-play-refusals.ts'

// The user's auto-bidder on one auction (docs/decisions/015-auto-bidder.md): the engine holds
// the budget in Redis; this turns its answers into statuses and messages in the user's language.

export const AUTOBID_NS = ['autobid', 'common'] as const

export const autoBidSchema = z.object({
  bids: z.coerce
    .number({ invalid_type_error: 'autobid:errors.invalid_bids' })
    .int('autobid:errors.invalid_bids')
    .min(1, 'autobid:errors.invalid_bids')
    .max(AUTO_BID_MAX, 'autobid:errors.invalid_bids'),
})

export type AutoBidView = { bidsLeft: number; placed: number }

const statusOf = {
  auction_not_found: 404,
  auction_ended: 409,
  insufficient_bids: 402,
  invalid_bids: 400,
  user_not_found: 401,
  no_auto_bid: 404,
  ...FAIR_PLAY_STATUS,
} as const

type Reason = keyof typeof statusOf

export type AutoBidOutcome =
  | { ok: true; status: 200; message: string; balance: number; autoBid: AutoBidView | null }
  | { ok: false; status: number; reason: Reason; message: string }

const view = (status: AutoBidStatus | null): AutoBidView | null =>
  status ? { bidsLeft: status.left, placed: status.placed } : null

function rejected(reason: Reason, t: TFunction): AutoBidOutcome {
  return {
    ok: false,
    status: statusOf[reason],
    reason,
    message:
      reason in FAIR_PLAY_STATUS
        ? t(`common:bidding.errors.${reason}`)
        : t(`autobid:errors.${reason}`, { max: AUTO_BID_MAX }),
  }
}

/** An auction Redis no longer holds may have finished long ago. */
async function whyMissing(auctionId: string): Promise<Reason> {
  const row = await getPrisma().auction.findUnique({
    where: { id: auctionId },
    select: { status: true },
  })
  return row?.status === 'finished' ? 'auction_ended' : 'auction_not_found'
}

export async function getAutoBid(engine: Engine, auctionId: string, userId: string) {
  return view(await engine.getAutoBid(auctionId, userId))
}

export async function startAutoBid(
  engine: Engine,
  auctionId: string,
  userId: string,
  input: unknown,
  t: TFunction,
): Promise<AutoBidOutcome> {
  const parsed = autoBidSchema.safeParse(input)
  if (!parsed.success) return rejected('invalid_bids', t)
  const result = await engine.setAutoBid(auctionId, userId, parsed.data.bids)
  if (!result.ok) {
    const reason =
      result.reason === 'auction_not_found' ? await whyMissing(auctionId) : result.reason
    return rejected(reason, t)
  }
  return {
    ok: true,
    status: 200,
    message: t('autobid:started', { count: result.left }),
    balance: result.balance,
    autoBid: view(result),
  }
}

export async function stopAutoBid(
  engine: Engine,
  auctionId: string,
  userId: string,
  t: TFunction,
): Promise<AutoBidOutcome> {
  const result = await engine.stopAutoBid(auctionId, userId)
  if (!result.ok) return rejected(result.reason, t)
  return {
    ok: true,
    status: 200,
    message: t('autobid:stopped', { count: result.returned }),
    balance: result.balance,
    autoBid: null,
  }
}
