/**
 * Where an auction's record of bids stands (docs/fair-play.md): the last place and its hash (the
 * genesis at place 0). Sent with each auctionUpdate and shown under the auction's bid history.
 */
export type RecordHead = { seq: number; head: string }
