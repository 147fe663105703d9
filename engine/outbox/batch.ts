import type { LedgerReason } from '../../prisma/generated/enums.ts'

// What a batch of outbox entries changes in Postgres, gathered entry by entry (handlers/) and
// then written with one statement per table (write.ts): a batch holds hundreds of entries.

export type AuctionChange = {
  priceMax: number
  addBids: number
  addPrebids: number
  started: boolean
  finish?: {
    winner: string
    bot: boolean
    name: string
    price: number
    endedAt: number
    bids: number
  }
}

export type UserChange = { addBids: number; addSpent: number; addWins: number }

export type BidRow = {
  id: string
  eventId: string
  auctionId: string
  userId: string | null
  botId: string | null
  isBot: boolean
  isAuto: boolean
  botName: string | null
  isPrebid: boolean
  amount: number
  createdAt: Date
  /** Its place in the auction's record, how it came and the name it was shown under. */
  seq: number | null
  kind: string | null
  bidderName: string
}

export type PrebidRow = {
  id: string
  eventId: string
  auctionId: string
  userId: string
  createdAt: Date
}

export type LedgerRow = {
  userId: string | null
  amount: number
  balanceAfter: number
  reason: LedgerReason
  reference: string
  auctionId: string | null
  /** The admin who changed the balance, and their reason (admin_adjust rows only). */
  adminId?: string | null
  note?: string | null
  createdAt: Date
}

/** Prebids of one auction that became bids when it started. */
export type Conversion = { auctionId: string; users: string[]; at: Date }

/** An auto-bid reserve (amount < 0) or return (amount >= 0), in stream order. */
export type AutoBidMove = { auctionId: string; userId: string; amount: number }

export class OutboxBatch {
  readonly auctions = new Map<string, AuctionChange>()
  readonly users = new Map<string, UserChange>()
  /** `botId|auctionId` -> bids the bot placed there. */
  readonly bots = new Map<string, number>()
  readonly bids: BidRow[] = []
  readonly prebids: PrebidRow[] = []
  readonly ledger: LedgerRow[] = []
  readonly converted: Conversion[] = []
  readonly autoBids: AutoBidMove[] = []
  /** `auctionId|userId` -> bids the user's auto-bidder placed there. */
  readonly autoPlaced = new Map<string, number>()

  /** The auction's change, started empty on first use. */
  auction(id: string): AuctionChange {
    let change = this.auctions.get(id)
    if (!change)
      this.auctions.set(id, (change = { priceMax: 0, addBids: 0, addPrebids: 0, started: false }))
    return change
  }

  /** The user's change, started empty on first use (a user in the batch gets its row updated). */
  user(id: string): UserChange {
    let change = this.users.get(id)
    if (!change) this.users.set(id, (change = { addBids: 0, addSpent: 0, addWins: 0 }))
    return change
  }
}
