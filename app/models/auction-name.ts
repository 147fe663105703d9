// What names an auction wherever it is listed (auction-rows.server.ts selects it with every row).

/** What names an auction wherever it is listed: its ids, its address, title, text and picture. */
export const auctionNameSelect = {
  id: true,
  displayId: true,
  slug: true,
  title: true,
  description: true,
  imageUrl: true,
} as const

export type AuctionName = {
  id: string
  displayId: string
  slug: string
  title: string
  description: string
  imageUrl: string | null
}

/** The name of the auction a fuller row holds, its fields in the same order. */
export function auctionNameOf(row: AuctionName): AuctionName {
  const { id, displayId, slug, title, description, imageUrl } = row
  return { id, displayId, slug, title, description, imageUrl }
}
