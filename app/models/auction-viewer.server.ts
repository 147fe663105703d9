import type { Engine } from '../../engine/index.ts'
import { hasUserPrebid } from '~/models/auction.server.ts'
import { getAutoBid } from '~/models/autobid.server.ts'

/** What the auction page shows of the person viewing it: their prebid on it and their auto-bidder. */
export async function auctionViewerValues(
  engine: Engine,
  auction: { id: string; status: string },
  user: { id: string } | null,
) {
  const [hasPrebid, autoBid] = await Promise.all([
    user && auction.status === 'upcoming'
      ? hasUserPrebid(auction.id, user.id).then(
          (found) => found || engine.hasPrebid(auction.id, user.id),
        )
      : false,
    user && auction.status !== 'finished' ? getAutoBid(engine, auction.id, user.id) : null,
  ])
  return { hasPrebid, autoBid }
}
