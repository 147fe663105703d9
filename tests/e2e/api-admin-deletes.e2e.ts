import { beforeAll, describe, expect, test } from 'vitest'
import { call, newAccount, unique } from './api.ts'
import { createAuction, createOrder, e2eDatabase } from './auctions.ts'
import { adminSession } from './admin-api.ts'

// Runs alone: as the rest of the admin API's tests (api-admin-*.e2e.ts), some of which change the
// bot and site settings every other file's pages show.

// Deletes by an admin keep money (docs/decisions/029-nothing-paid-disappears.md) and take a deleted
// account out of the bidding at once.

let admin = ''

beforeAll(async () => {
  admin = await adminSession()
})

describe('admin API: deletes keep money (docs/decisions/029-nothing-paid-disappears.md)', () => {
  /** An auction of the test's own that has started and been ended by the admin. */
  async function finishedAuction(title: string) {
    const auction = await createAuction({ title, startsInMs: 300 })
    await expect
      .poll(
        async () => (await call(`/api/admin/auctions/${auction.id}/end`, { cookie: admin })).status,
        { timeout: 10_000 },
      )
      .toBe(200)
    return auction
  }

  test('an auction or an account with a paid order is refused with 409; an unpaid order goes', async () => {
    const prisma = e2eDatabase()
    const buyer = await newAccount()
    const paidLot = await finishedAuction(`Оплачен ${unique()}`)
    const order = await createOrder(buyer.id, paidLot.id)
    const paid = await call(`/api/admin/orders/${order.id}`, {
      method: 'PATCH',
      cookie: admin,
      body: { status: 'paid' },
    })
    expect(paid.status).toBe(200)

    for (const path of [
      `/api/admin/finished-auctions/${paidLot.id}`,
      `/api/admin/auctions/${paidLot.id}`,
    ]) {
      expect(await call(path, { method: 'DELETE', cookie: admin })).toMatchObject({
        status: 409,
        json: {
          error:
            'У этого аукциона есть оплаченные заказы или платежи: удалить его нельзя, чтобы деньги и товар не потерялись',
        },
      })
    }
    expect(
      await call(`/api/admin/users/${buyer.id}`, { method: 'DELETE', cookie: admin }),
    ).toMatchObject({
      status: 409,
      json: {
        error:
          'У этого пользователя есть оплаченные заказы или платёж в обработке: удалить его нельзя, чтобы деньги и товар не потерялись',
      },
    })
    expect(await prisma.order.findUnique({ where: { id: order.id } })).toMatchObject({
      status: 'paid',
      userId: buyer.id,
      auctionId: paidLot.id,
    })
    expect(await prisma.user.count({ where: { id: buyer.id } })).toBe(1)
    // The account still signs in: nothing of it was ended.
    expect((await call('/api/auth/me', { method: 'GET', cookie: buyer.cookie })).status).toBe(200)

    // The database itself refuses to cascade a paid order away.
    await expect(prisma.auction.delete({ where: { id: paidLot.id } })).rejects.toThrow()
    await expect(prisma.user.delete({ where: { id: buyer.id } })).rejects.toThrow()

    // An order nobody paid holds no money: it goes with its auction.
    const unpaidLot = await finishedAuction(`Не оплачен ${unique()}`)
    const unpaid = await createOrder(buyer.id, unpaidLot.id)
    expect(
      (
        await call(`/api/admin/finished-auctions/${unpaidLot.id}`, {
          method: 'DELETE',
          cookie: admin,
        })
      ).status,
    ).toBe(200)
    expect(await prisma.order.count({ where: { id: unpaid.id } })).toBe(0)
  })

  test('a deleted account leaves the engine at once: its prebid and auto-bidder place no bid', async () => {
    const gone = await newAccount()
    const stays = await newAccount()
    // It starts only once everything below is in place, however slow the machine.
    const title = `Удалённый ${unique()}`
    const auction = await createAuction({ title, startsInMs: 60 * 60 * 1000 })
    expect((await call(`/api/auctions/${auction.id}/prebid`, { cookie: gone.cookie })).status).toBe(
      200,
    )
    expect(
      (await call(`/api/auctions/${auction.id}/prebid`, { cookie: stays.cookie })).status,
    ).toBe(200)
    const autobid = await call(`/api/auctions/${auction.id}/autobid`, {
      cookie: gone.cookie,
      body: { bids: 3 },
    })
    expect(autobid.status).toBe(200)
    expect(
      await call(`/api/admin/users/${gone.id}`, { method: 'DELETE', cookie: admin }),
    ).toMatchObject({ status: 200, json: { ok: true } })

    const read = async () =>
      (await call(`/api/auctions/slug/${encodeURIComponent(auction.slug)}`, { method: 'GET' }))
        .json as { status: string; totalBids: number; prebidsCount: number }
    expect((await read()).prebidsCount).toBe(1)
    const moved = await call(`/api/admin/auctions/${auction.id}`, {
      method: 'PUT',
      cookie: admin,
      body: { title, retailPrice: 1, startTime: new Date(Date.now() + 1_000).toISOString() },
    })
    expect(moved.status).toBe(200)
    await expect.poll(async () => (await read()).status, { timeout: 10_000 }).toBe('live')
    // Only the remaining prebid became a bid; the deleted account's auto-bidder stays silent
    // through the last seconds of the timer, and the remaining prebidder wins.
    expect(await read()).toMatchObject({ totalBids: 1, prebidsCount: 1 })
    await expect.poll(async () => (await read()).status, { timeout: 20_000 }).toBe('finished')
    // Postgres learns of the finish from the outbox, a moment after Redis.
    const row = () => e2eDatabase().auction.findUniqueOrThrow({ where: { id: auction.id } })
    await expect.poll(async () => (await row()).status, { timeout: 10_000 }).toBe('finished')
    expect(await row()).toMatchObject({ winnerId: stays.id, totalBids: 1 })
  })
})
