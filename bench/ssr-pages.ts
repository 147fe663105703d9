// What bench:ssr measures: the pages (each against the bare app's text route or one-line
// document, with its goal as a multiple of it) and the bid phases (against the text route).
import type { FloorKind } from './floor.ts'
import type { Site } from './site.ts'

export type Kind = {
  name: string
  paths: (site: Site) => string[]
  goalStatements: string
  /** The bare figure it is measured against, and the most it may be as a multiple of it. */
  floor: FloorKind
  goalRatio: number
  /** Only for a signed-in person. */
  signedIn?: boolean
}
// Goals (a signed-in person's pages): docs/performance.md, eighth round.
const page = (name: string, goalRatio = 2): Kind => ({
  name,
  paths: () => [name],
  goalStatements: '',
  floor: 'document',
  goalRatio,
})
export const FLOOR = '/status.txt'
export const allKinds: Kind[] = [
  { ...page(FLOOR, 1.3), floor: 'text' },
  page('/status', 1.5),
  page('/'),
  page('/auctions'),
  {
    ...page('/auction/{slug}'),
    paths: (site) => site.auctions.map((auction) => `/auction/${auction.slug}`),
    goalStatements: '   (goal 0: live pages read Redis only)',
  },
  page('/how-it-works'),
  page('/auction-rules'),
  page('/privacy-policy'),
  page('/terms-of-service'),
  page('/support'),
  { ...page('/profile'), signedIn: true },
  { ...page('/bid-history'), signedIn: true },
  { ...page('/topup'), signedIn: true },
]
/** Bids, measured against the bare text route: through the JSON API, and from a page with JS. */
export const bidPhases = [
  { via: 'api', name: 'bid: JSON API', goalRatio: 1.5 },
  { via: 'fetcher', name: 'bid: page with JS', goalRatio: 2 },
] as const
