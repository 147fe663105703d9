import type { OutboxHandler } from '../events.ts'

/** An auction ended: its final row, and a win for a human winner. */
export const finish: OutboxHandler<'finish'> = (batch, { fields: f }) => {
  const a = batch.auction(f.auction!)
  const bot = f.bot === '1'
  a.finish = {
    winner: f.winner ?? '',
    bot,
    name: f.name ?? '',
    price: Number(f.price),
    endedAt: Number(f.endedAt),
    bids: Number(f.bids),
  }
  if (f.winner && !bot) batch.user(f.winner).addWins += 1
}
