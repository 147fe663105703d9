import { describe, expect, test } from 'vitest'
import { canonical, chain, genesis, verify, type AuditEntry } from './audit-chain.ts'

const auctionId = 'clxauction0001'
const startTime = '2026-12-02T10:00:00.000Z'
const entries: AuditEntry[] = [
  { seq: 1, at: '2026-12-02T10:00:00.000Z', amount: 0.01, bidder: 'aibek', kind: 'prebid' },
  { seq: 2, at: '2026-12-02T10:00:03.125Z', amount: 0.02, bidder: 'Нурлан', kind: 'bot' },
  { seq: 3, at: '2026-12-02T10:00:05.900Z', amount: 0.03, bidder: 'aizada', kind: 'autobid' },
  { seq: 4, at: '2026-12-02T10:00:09.001Z', amount: 0.04, bidder: null, kind: 'bid' },
]
const record = () => {
  const bids = chain(genesis(auctionId, startTime), entries)
  return { auctionId, startTime, head: bids.at(-1)!.hash, bids }
}

describe("an auction's record", () => {
  test('canonical JSON is the five keys in order, without spaces', () => {
    expect(canonical({ ...entries[1]!, amount: 12.35 })).toBe(
      '{"seq":2,"at":"2026-12-02T10:00:03.125Z","amount":12.35,"bidder":"Нурлан","kind":"bot"}',
    )
  })

  test('each hash is sha256 of the one before and the entry; the first from the genesis', () => {
    const { bids } = record()
    expect(genesis(auctionId, startTime)).toMatch(/^[0-9a-f]{64}$/)
    expect(new Set(bids.map((b) => b.hash)).size).toBe(4)
    expect(verify(record())).toEqual({ whole: true, bids: 4, head: bids[3]!.hash })
    // An empty record is whole when its head is the genesis.
    expect(verify({ auctionId, startTime, head: genesis(auctionId, startTime), bids: [] })).toEqual(
      { whole: true, bids: 0, head: genesis(auctionId, startTime) },
    )
  })

  test('one byte changed anywhere, a bid removed, added or moved: not whole', () => {
    const changed = record()
    changed.bids[1] = { ...changed.bids[1]!, at: '2026-12-02T10:00:03.126Z' }
    expect(verify(changed)).toMatchObject({ whole: false, seq: 2, problem: 'hash' })

    const renamed = record()
    renamed.bids[2] = { ...renamed.bids[2]!, bidder: 'aizadа' }
    expect(verify(renamed)).toMatchObject({ whole: false, seq: 3, problem: 'hash' })

    const removed = record()
    removed.bids.splice(1, 1)
    expect(verify(removed)).toMatchObject({ whole: false, seq: 2, problem: 'order' })

    const lastRemoved = record()
    lastRemoved.bids.pop()
    expect(verify(lastRemoved)).toMatchObject({ whole: false, problem: 'head' })

    const rehashed = record()
    // Rewritten consistently from the genesis on: the head published before still tells.
    rehashed.bids = chain(genesis(auctionId, startTime), [
      entries[0]!,
      { ...entries[1]!, kind: 'bid' },
      ...entries.slice(2),
    ])
    expect(verify(rehashed)).toMatchObject({ whole: false, problem: 'head' })

    const otherAuction = { ...record(), auctionId: 'clxauction0002' }
    expect(verify(otherAuction)).toMatchObject({ whole: false, seq: 1, problem: 'hash' })

    const bad = record()
    ;(bad.bids as unknown[])[0] = { ...bad.bids[0]!, kind: 'gift' }
    expect(verify(bad)).toMatchObject({ whole: false, seq: 1, problem: 'shape' })
  })
})
