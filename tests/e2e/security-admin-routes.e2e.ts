import { describe, expect, test } from 'vitest'
import { newAccount, unique } from './api.ts'
import { createAuction, e2eDatabase } from './auctions.ts'
import { getPage, postPage } from './pages.ts'

// Runs alone: it checks that the bot settings are as they were, which other files' bot-driven auctions
// set.

// The admin dashboard's routes turn away anyone but an admin and change nothing for them (issue:
// reliability and security).

const account = newAccount

describe('the admin dashboard', () => {
  test('its routes turn away anyone but an admin, and change nothing for them', async () => {
    const user = await account()
    const upcoming = await createAuction({ title: `Не трогать ${unique()}`, startsInMs: 3_600_000 })
    const prisma = e2eDatabase()
    const bot = await prisma.bot.findFirstOrThrow({ select: { id: true } })
    const settingsBefore = await prisma.botSettings.findUnique({ where: { id: 1 } })
    const title = `Чужой лот ${unique()}`
    const auctionFields = { title, retailPrice: '100', startTime: '2099-01-01T10:00' }
    const routes: Array<[string, Record<string, string>]> = [
      ['/admin', { intent: 'create', ...auctionFields }],
      ['/admin/auctions/new', auctionFields],
      [`/admin/auctions/${upcoming.id}/edit`, auctionFields],
      [`/admin/auctions/${upcoming.id}/assign`, { botId: bot.id, bidLimit: '0' }],
      [`/admin/auctions/${upcoming.id}/unassign`, { botId: bot.id }],
      [`/admin/auctions/${upcoming.id}/end`, {}],
      [`/admin/auctions/${upcoming.id}/delete`, {}],
      ['/admin/bots/new', { firstName: 'Чужой', lastName: 'Бот' }],
      ['/admin/bots/settings', { enabled: 'on', minDelay: '9', maxDelay: '10', activeBots: '5' }],
      [`/admin/bots/${bot.id}/delete`, {}],
    ]
    for (const [path, fields] of routes) {
      for (const [cookie, to] of [
        ['', `/login?redirectTo=${encodeURIComponent(path)}`],
        [user.cookie, '/'],
      ] as const) {
        const who = cookie ? 'a user' : 'anonymous'
        const page = await getPage(path, cookie, 'ru')
        expect([page.status, page.location], `${who} GET ${path}`).toEqual([302, to])
        const post = await postPage(path, { form: fields }, { cookie })
        expect([post.status, post.location], `${who} POST ${path}`).toEqual([302, to])
      }
    }
    expect(await prisma.auction.findUniqueOrThrow({ where: { id: upcoming.id } })).toMatchObject({
      title: upcoming.title,
      status: 'upcoming',
    })
    expect(await prisma.auction.count({ where: { title } })).toBe(0)
    expect(await prisma.botAssignment.count({ where: { auctionId: upcoming.id } })).toBe(0)
    expect(await prisma.bot.count({ where: { id: bot.id } })).toBe(1)
    expect(await prisma.bot.count({ where: { firstName: 'Чужой' } })).toBe(0)
    expect(await prisma.botSettings.findUnique({ where: { id: 1 } })).toEqual(settingsBefore)
  })
})
