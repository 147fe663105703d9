import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, inject, test } from 'vitest'
import { verifySource } from '../../scripts/audit-verify.ts'
import { call, newAccount, unique } from './api.ts'
import {
  assignBots,
  createAuction,
  keepLive,
  outboxWritten,
  setBalance,
  startSoon,
  untilLive,
} from './auctions.ts'

// An auction's record of bids (docs/fair-play.md) as GET /api/auctions/{id}/audit answers it and
// as `npm run audit:verify` checks it: prebids, people's bids sent at once, an auto-bidder and
// the house bots all take their places, and the record is whole; changed, it is not.

type Entry = { seq: number; at: string; amount: number; bidder: string | null; kind: string }
type Record = {
  auctionId: string
  status: string
  startTime: string
  head: string
  total: number
  bids: Array<Entry & { hash: string }>
  next: number | null
}

const record = async (id: string, after?: string) => {
  const query = after === undefined ? '' : `?after=${after}`
  return call(`/api/auctions/${id}/audit${query}`, { method: 'GET' })
}

async function funded(bids: number) {
  const account = await newAccount()
  await setBalance(account.id, bids)
  return account
}

describe('the record of an auction', () => {
  test('every kind of bid takes its place; the check finds it whole, and not once changed', async () => {
    const auction = await createAuction({
      title: `Запись ${unique()}`,
      startsInMs: 60 * 60 * 1000,
    })
    const prebidders = await Promise.all([funded(2), funded(2)])
    for (const person of prebidders) {
      const prebid = await call(`/api/auctions/${auction.id}/prebid`, { cookie: person.cookie })
      expect(prebid.status).toBe(200)
    }
    const auto = await funded(3)
    const autoBid = await call(`/api/auctions/${auction.id}/autobid`, {
      body: { bids: 3 },
      cookie: auto.cookie,
    })
    expect(autoBid.status).toBe(200)
    const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => funded(5)))
    await startSoon(auction.id)
    await untilLive(auction.id)
    // Everyone at once, three times: some are refused (too fast, already leading), the rest
    // take the next places.
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(
        people.map((person) => call(`/api/auctions/${auction.id}/bid`, { cookie: person.cookie })),
      )
    }
    const kinds = async () => {
      await outboxWritten()
      const { json } = await record(auction.id)
      return new Set((json as unknown as Record).bids.map((bid) => bid.kind))
    }
    // The auto-bidder answers in the timer's last seconds; then the house bots join, two people
    // keeping the auction live until they have bid.
    await expect.poll(kinds, { timeout: 30_000 }).toContain('autobid')
    const stopKeeping = keepLive(auction.id, await Promise.all([funded(20), funded(20)]))
    await assignBots(auction.id)
    await expect.poll(kinds, { timeout: 30_000 }).toContain('bot')
    await stopKeeping()
    expect(await kinds()).toEqual(new Set(['prebid', 'bid', 'autobid', 'bot']))

    await outboxWritten()
    const url = `${inject('baseUrl')}/api/auctions/${auction.id}/audit`
    const checked = await verifySource(url)
    expect(checked.verdict).toMatchObject({ whole: true })
    const { json, status } = await record(auction.id)
    expect(status).toBe(200)
    const whole = json as unknown as Record
    expect(whole).toMatchObject({ auctionId: auction.id, status: 'live', next: null })
    expect(whole.bids.map((b) => b.seq)).toEqual(whole.bids.map((_, i) => i + 1))
    expect(whole.bids.slice(0, 2).map((b) => [b.kind, b.bidder])).toEqual(
      prebidders.map((p) => ['prebid', p.name]),
    )
    expect(whole.bids.map((b) => b.amount)).toEqual(whole.bids.map((_, i) => (i + 1) / 100))

    // A page from a place on: the same entries and hashes as the whole record has there.
    const later = (await record(auction.id, '2')).json as unknown as Record
    expect(later.bids[0]).toEqual(whole.bids[2])
    expect(later.head.length).toBe(64)

    // Kept as a file: one byte changed, or one bid taken out, and it is not whole.
    const dir = mkdtempSync(path.join(tmpdir(), 'record-'))
    const kept = (name: string, value: Record) => {
      const file = path.join(dir, name)
      writeFileSync(file, JSON.stringify(value))
      return file
    }
    expect((await verifySource(kept('whole.json', whole))).verdict.whole).toBe(true)
    const oneByte = structuredClone(whole)
    oneByte.bids[3]!.at = oneByte.bids[3]!.at.replace(/\dZ$/, (d) => `${(Number(d[0]) + 1) % 10}Z`)
    expect((await verifySource(kept('byte.json', oneByte))).verdict).toMatchObject({
      whole: false,
      seq: 4,
    })
    const removed = structuredClone(whole)
    removed.bids.splice(2, 1)
    expect((await verifySource(kept('removed.json', removed))).verdict).toMatchObject({
      whole: false,
      seq: 3,
    })
  }, 90_000)

  test('a bad place or an unknown auction is refused with a message', async () => {
    expect(await record('nope')).toMatchObject({
      status: 404,
      json: { error: expect.any(String) },
    })
    for (const after of ['-1', 'abc', '1.5', '99999999999']) {
      expect(await record('nope', after)).toMatchObject({
        status: 400,
        json: { error: 'Некорректные данные' },
      })
    }
  })
})
