import { randomBytes } from 'node:crypto'
import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { slugify } from '../../app/utils/slug.ts'
import { waitFor } from '../setup/stack.ts'
import { call, sessionOf } from './api.ts'
import { createBotDrivenAuction, e2eDatabase } from './auctions.ts'
import { withoutPageTexts } from './pages.ts'

// Runs alone: it turns `discloseHouseBids` off, which changes what every page shows of bots' bids.

// docs/decisions/044-house-bids-undisclosed.md: with `discloseHouseBids` off, nothing a visitor
// can read tells a bot from a person (API, pages and their data, socket updates); the bot's name
// is shown as a bidder's. Admin calls keep the markers.

/** Every way the answers name a bot, as keys or as the engine's bidder ids. */
const MARKERS = [
  '"isBot"',
  '"botName"',
  '"lastBidderIsBot"',
  '"botBids"',
  '"winnerBotName"',
  '"userBids"',
  'bot:',
  '\\"isBot\\"',
  '\\"botName\\"',
  '\\"lastBidderIsBot\\"',
  '\\"winnerBotName\\"',
]

let admin = ''
let before: Record<string, unknown> = {}
let live: { id: string; slug: string }
let won: { id: string; slug: string; botName: string }
const sockets: Socket[] = []

beforeAll(async () => {
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  admin = sessionOf(login.cookie)
  before = (await call('/api/admin/settings', { method: 'GET', cookie: admin })).json
  const prisma = e2eDatabase()
  live = await createBotDrivenAuction(`Площадка ${Date.now()}`)
  // A finished auction whose last bid was a bot's: the house kept the item.
  const bot = (await prisma.bot.findFirst({ select: { id: true, username: true } }))!
  const displayId = `T${randomBytes(3).toString('hex').toUpperCase()}`
  const title = `Бот выиграл ${displayId}`
  const auction = await prisma.auction.create({
    data: {
      displayId,
      slug: slugify(title, displayId),
      title,
      retailPrice: 5_000_00,
      startTime: new Date(Date.now() - 3_600_000),
      status: 'finished',
      endTime: new Date(Date.now() - 60_000),
      currentPrice: 1,
      finalPrice: 1,
      totalBids: 1,
      winnerBotName: bot.username,
      bids: { create: { botId: bot.id, isBot: true, botName: bot.username, amount: 1 } },
    },
    select: { id: true, slug: true },
  })
  won = { ...auction, botName: bot.username }
  // The live auction's bots have bid (they answer within their delays once it runs).
  await waitFor(
    'a bot bid in the live auction',
    async () => {
      const bids = (await call(`/api/auctions/${live.id}/bids`, { method: 'GET' })).json
      return Array.isArray(bids) && bids.length > 0
    },
    20_000,
  )
})

afterAll(async () => {
  for (const socket of sockets) socket.close()
  await setDisclosure(before.discloseHouseBids !== false)
})

async function setDisclosure(discloseHouseBids: boolean) {
  const saved = await call('/api/admin/settings', {
    method: 'PUT',
    cookie: admin,
    body: { ...before, discloseHouseBids },
  })
  expect(saved.status).toBe(200)
}

const text = async (path: string) =>
  withoutPageTexts(
    await (
      await fetch(`${inject('baseUrl')}${path}`, { headers: { 'Accept-Language': 'ru' } })
    ).text(),
  )

/** What a visitor can read about the two auctions: API answers and pages, as raw text. */
async function whatVisitorsRead() {
  const paths = [
    '/api/auctions',
    `/api/auctions/slug/${live.slug}`,
    `/api/auctions/${live.id}/bids`,
    `/api/auctions/${live.id}/stats`,
    `/api/auctions/slug/${won.slug}`,
    `/api/auctions/${won.id}/bids`,
    `/api/auctions/${won.id}/stats`,
    '/',
    '/auctions',
    `/auction/${live.slug}`,
    `/auction/${won.slug}`,
    `/auction/${live.slug}.data`,
    `/auction/${won.slug}.data`,
  ]
  return Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await text(p)])))
}

/** The first `auctionUpdate` a visitor's socket gets for the live auction, as sent. */
async function socketUpdate(): Promise<{ raw: string; update: SocketUpdate }> {
  const socket = io(inject('baseUrl'), { transports: ['websocket'], reconnection: false })
  sockets.push(socket)
  const update = await new Promise<SocketUpdate>((resolve) => {
    socket.once('auctionUpdate', resolve)
    socket.emit('joinAuction', live.id)
  })
  socket.close()
  return { raw: JSON.stringify(update), update }
}
type SocketUpdate = {
  auction: Record<string, unknown>
  bids: Array<Record<string, unknown> & { user: { id: string; username: string } | null }>
}

describe('house bids', () => {
  test('off: no answer, page or socket update marks a bot; bots bid under their names', async () => {
    await setDisclosure(false)
    const read = await whatVisitorsRead()
    for (const [path, body] of Object.entries(read)) {
      for (const marker of MARKERS) expect(body, `${path} shows ${marker}`).not.toContain(marker)
      expect(body, path).not.toContain('ставка площадки')
      expect(body, path).not.toContain('Ставка площадки')
    }
    // The bot is a bidder with a name like anyone's.
    const bids = JSON.parse(read[`/api/auctions/${won.id}/bids`]!) as SocketUpdate['bids']
    expect(bids[0]).toMatchObject({ user: { username: won.botName } })
    expect(JSON.parse(read[`/api/auctions/slug/${won.slug}`]!)).toMatchObject({
      winner: { username: won.botName },
    })
    const stats = JSON.parse(read[`/api/auctions/${live.id}/stats`]!) as Record<string, number>
    expect(stats.totalBids).toBeGreaterThan(0)
    expect(stats.uniqueParticipants).toBeGreaterThan(0)
    expect(read[`/auction/${won.slug}`]).toContain(won.botName)

    const { raw, update } = await socketUpdate()
    for (const marker of MARKERS) expect(raw, `socket shows ${marker}`).not.toContain(marker)
    expect(update.bids.length).toBeGreaterThan(0)
    expect(update.bids[0]!.user?.username).toBe(update.auction.lastBidder)

    // Admins still see who is who.
    const adminStats = await call(`/api/admin/auction-stats/${won.id}`, {
      method: 'GET',
      cookie: admin,
    })
    expect(adminStats.json).toMatchObject({ botBids: 1 })
  })

  test('on: the bid history, its answers and the socket updates say which bids are the house’s', async () => {
    await setDisclosure(true)
    const bids = (await call(`/api/auctions/${won.id}/bids`, { method: 'GET' })).json
    expect(bids).toMatchObject([{ isBot: true, botName: won.botName, user: null }])
    expect((await call(`/api/auctions/slug/${won.slug}`, { method: 'GET' })).json).toMatchObject({
      winnerBotName: won.botName,
      winner: null,
    })
    expect((await call(`/api/auctions/${won.id}/stats`, { method: 'GET' })).json).toMatchObject({
      botBids: 1,
      userBids: 0,
    })
    expect(await text(`/auction/${won.slug}`)).toContain('ставка площадки')
    const { update } = await socketUpdate()
    expect(update.auction.lastBidderIsBot).toBe(true)
    expect(update.bids.some((bid) => bid.isBot === true)).toBe(true)
  })
})
