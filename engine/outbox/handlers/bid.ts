import type { OutboxHandler } from '../events.ts'

/** A bid: a Bid row, the auction's price and count, and the bidder's counts or bot's tally. */
export const bid: OutboxHandler<'bid'> = (batch, { id, at, fields: f }) => {
  const price = Number(f.price)
  const a = batch.auction(f.auction!)
  a.priceMax = Math.max(a.priceMax, price)
  a.addBids += 1
  const isBot = f.bot === '1'
  const botId = isBot ? f.bidder!.slice('bot:'.length) : null
  batch.bids.push({
    id,
    eventId: id,
    auctionId: f.auction!,
    userId: isBot ? null : f.bidder!,
    botId,
    isBot,
    isAuto: f.auto === '1',
    botName: isBot ? f.name! : null,
    isPrebid: false,
    amount: price,
    createdAt: at,
    // Absent from entries written before the record was kept.
    seq: f.seq === undefined ? null : Number(f.seq),
    kind: f.kind ?? null,
    bidderName: f.name ?? '',
  })
  if (isBot) {
    const key = `${botId}|${f.auction}`
    batch.bots.set(key, (batch.bots.get(key) ?? 0) + 1)
    return
  }
  const u = batch.user(f.bidder!)
  u.addBids += 1
  if (f.auto === '1') {
    // Paid from the auto-bid reserve, whose ledger row was written when reserved.
    u.addSpent += 1
    const key = `${f.auction}|${f.bidder}`
    batch.autoPlaced.set(key, (batch.autoPlaced.get(key) ?? 0) + 1)
  }
  if (f.debit === '1') {
    u.addSpent += 1
    batch.ledger.push({
      userId: f.bidder!,
      amount: -1,
      balanceAfter: Number(f.balance),
      reason: 'bid',
      reference: `bid:${id}`,
      auctionId: f.auction!,
      createdAt: at,
    })
  }
}
