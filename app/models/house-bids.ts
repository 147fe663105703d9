// Who may learn which bids are the house's (docs/decisions/044-house-bids-undisclosed.md). With
// the `discloseHouseBids` setting on, a visitor reads the markers: a bid's `isBot` and `botName`
// (its `user` null), an auction's `lastBidderIsBot` and `winnerBotName`, the stats' `botBids`
// and `userBids`. With it off, every one of them is left out, and a bot bids under its name as
// anyone does: `user: {id, username}`, `lastBidder`, `winner: {username}`. This is the only
// place that rule is written: every answer, page and socket update a visitor can read passes
// through `forVisitors`. Admin calls and pages read the models directly and keep the markers.

/** A bid as the models give it: a bot's `user` is the bot itself (its id and name). */
type Bid = {
  isBot?: boolean
  botName?: string | null
  user: { id: string; username: string } | null
}

/** An auction as the models give it; a bot as the last bidder is `bot:<id>`. */
type Auction = {
  lastBidderIsBot?: boolean
  lastBidderId?: string | null
  winner?: { username: string } | null
  winnerBotName?: string | null
}

type Stats = { botBids?: number; userBids?: number }

type VisitorData<A, B, S> = {
  auction?: A | null
  auctions?: readonly A[]
  bids?: readonly B[]
  stats?: S
}

/** The engine names a bot among bidders `bot:<id>`. */
const BOT_BIDDER = /^bot:/

function bidFor<B extends Bid>(bid: B, disclose: boolean): B {
  if (disclose) return bid.isBot ? { ...bid, user: null } : bid
  const { isBot: _isBot, botName: _botName, ...rest } = bid
  return rest as B
}

function auctionFor<A extends Auction>(auction: A, disclose: boolean): A {
  if (disclose) return auction
  const { lastBidderIsBot: _last, winnerBotName, ...rest } = auction
  const shown = { ...rest } as A
  if (typeof auction.lastBidderId === 'string')
    shown.lastBidderId = auction.lastBidderId.replace(BOT_BIDDER, '')
  if ('winner' in auction)
    shown.winner = auction.winner ?? (winnerBotName ? { username: winnerBotName } : null)
  return shown
}

function statsFor<S extends Stats>(stats: S, disclose: boolean): S {
  if (disclose) return stats
  // People's bids would tell the house's by difference: both counts are left out.
  const { botBids: _botBids, userBids: _userBids, ...rest } = stats
  return rest as S
}

/**
 * What a visitor may read of auctions, bids and bid counts, by the `discloseHouseBids` setting:
 * give whichever of them an answer holds, get them back shaped.
 */
export function forVisitors<
  A extends Auction,
  B extends Bid,
  S extends Stats,
  T extends VisitorData<A, B, S>,
>(data: T, disclose: boolean): T {
  const shaped: VisitorData<A, B, S> = { ...data }
  if (data.auction) shaped.auction = auctionFor(data.auction, disclose)
  if (data.auctions) shaped.auctions = data.auctions.map((a) => auctionFor(a, disclose))
  if (data.bids) shaped.bids = data.bids.map((b) => bidFor(b, disclose))
  if (data.stats) shaped.stats = statsFor(data.stats, disclose)
  return shaped as T
}
