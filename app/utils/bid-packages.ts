// The five bid packages (docs/rules.md#bid-packages): 15 som a bid, 25% off a 20 som list price.
// Money in minor units (docs/decisions/003-money-minor-units.md).

/** What one bid costs in every package: 15 som (minor units). */
export const BID_PRICE = 15_00

/**
 * How many bids a bid-package auction holds when the admin does not say: what its retail price
 * buys at the packages' 15 som a bid, in whole bids rounded down, at least one
 * (docs/rules.md#bid-package-auctions).
 */
export function packageBidsFor(retailPrice: number) {
  return Math.max(1, Math.floor(retailPrice / BID_PRICE))
}

export type BidPackage = {
  id: string
  bids: number
  price: number
  originalPrice: number
  savings: number
  popular: boolean
}

export const BID_PACKAGES = [
  {
    id: 'bids-50',
    bids: 50,
    price: 750_00,
    originalPrice: 1000_00,
    savings: 250_00,
    popular: false,
  },
  {
    id: 'bids-100',
    bids: 100,
    price: 1500_00,
    originalPrice: 2000_00,
    savings: 500_00,
    popular: false,
  },
  {
    id: 'bids-250',
    bids: 250,
    price: 3750_00,
    originalPrice: 5000_00,
    savings: 1250_00,
    popular: true,
  },
  {
    id: 'bids-500',
    bids: 500,
    price: 7500_00,
    originalPrice: 10000_00,
    savings: 2500_00,
    popular: false,
  },
  {
    id: 'bids-1000',
    bids: 1000,
    price: 15000_00,
    originalPrice: 20000_00,
    savings: 5000_00,
    popular: false,
  },
] as const satisfies readonly BidPackage[]

export type BidPackageId = (typeof BID_PACKAGES)[number]['id']

export function findBidPackage(id: unknown): BidPackage | null {
  return BID_PACKAGES.find((pkg) => pkg.id === id) ?? null
}
