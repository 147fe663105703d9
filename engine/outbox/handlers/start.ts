import type { OutboxHandler } from '../events.ts'

/** One prebid turned into a bid at the start, as the start script writes it. */
type PrebidConversion = { user: string; name: string; price: number; seq?: number }

/**
 * An auction went live: its status, and its prebids as its first bids (ids `<entry>-1`, `-2`...,
 * as the recent-bids list shows them), the prebids marked converted.
 */
export const start: OutboxHandler<'start'> = (batch, { id, at, fields: f }) => {
  const a = batch.auction(f.auction!)
  a.started = true
  a.priceMax = Math.max(a.priceMax, Number(f.price))
  // cjson writes an empty Lua table as {}.
  const list = JSON.parse(f.conversions ?? '[]') as PrebidConversion[] | Record<string, never>
  const conversions = Array.isArray(list) ? list : []
  a.addBids += conversions.length
  conversions.forEach((c, index) => {
    batch.bids.push({
      id: `${id}-${index + 1}`,
      eventId: `${id}-${index + 1}`,
      auctionId: f.auction!,
      userId: c.user,
      botId: null,
      isBot: false,
      isAuto: false,
      botName: null,
      isPrebid: true,
      amount: c.price,
      createdAt: at,
      seq: c.seq ?? null,
      kind: c.seq === undefined ? null : 'prebid',
      bidderName: c.name,
    })
  })
  if (conversions.length) {
    batch.converted.push({ auctionId: f.auction!, users: conversions.map((c) => c.user), at })
  }
}
