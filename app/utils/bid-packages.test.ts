import { describe, expect, test } from 'vitest'
import { BID_PACKAGES, findBidPackage } from './bid-packages.ts'

describe('bid packages', () => {
  test('the five packages with their prices in tyiyn', () => {
    expect(BID_PACKAGES.map((p) => [p.bids, p.price, p.originalPrice, p.savings])).toEqual([
      [50, 750_00, 1000_00, 250_00],
      [100, 1500_00, 2000_00, 500_00],
      [250, 3750_00, 5000_00, 1250_00],
      [500, 7500_00, 10000_00, 2500_00],
      [1000, 15000_00, 20000_00, 5000_00],
    ])
  })

  test('15 som a bid, savings are the difference, 25% off', () => {
    for (const p of BID_PACKAGES) {
      expect(p.price / p.bids).toBe(15_00)
      expect(p.originalPrice - p.price).toBe(p.savings)
      expect(p.savings * 4).toBe(p.originalPrice)
      expect(p.id).toBe(`bids-${p.bids}`)
    }
  })

  test('only the 250 package is popular', () => {
    expect(BID_PACKAGES.filter((p) => p.popular).map((p) => p.bids)).toEqual([250])
  })

  test('lookup by id refuses anything else', () => {
    expect(findBidPackage('bids-100')?.bids).toBe(100)
    expect(findBidPackage('bids-10')).toBeNull()
    expect(findBidPackage(undefined)).toBeNull()
  })
})
