import { describe, expect, inject, test } from 'vitest'
import { call, newAccount, unique } from './api.ts'
import { createAuction, createOrder, e2eDatabase } from './auctions.ts'
import { flashOf, getPage, postPage } from './pages.ts'

// Runs alone: as the other security tests (security-logins.e2e.ts measures how long logins take,
// security-admin-routes.e2e.ts compares the bot settings before and after).

// Reading or changing what belongs to someone else: by ids in paths, bodies, queries and hidden
// fields, and through an admin's calls and pages (issue: reliability and security).

const account = newAccount

describe('what is mine stays mine', () => {
  test("bids and prebids lists hold only the caller's own, whatever they ask for", async () => {
    const a = await account()
    const b = await account()
    const upcoming = await createAuction({ title: `Чужое ${unique()}`, startsInMs: 3_600_000 })
    for (const who of [a, b]) {
      expect(
        (await call(`/api/auctions/${upcoming.id}/prebid`, { cookie: who.cookie })).status,
      ).toBe(200)
    }
    const live = await createAuction({ title: `Чужие ставки ${unique()}`, startsInMs: 300 })
    const bid = (cookie: string) => call(`/api/auctions/${live.id}/bid`, { cookie })
    await expect.poll(async () => (await bid(a.cookie)).status, { timeout: 10_000 }).toBe(200)
    expect((await bid(b.cookie)).status).toBe(200)

    for (const who of [a, b]) {
      // Query strings naming someone else change nothing: the session decides whose list it is.
      const bids = `/api/bids/user?userId=${encodeURIComponent(who === a ? b.name : a.name)}`
      await expect
        .poll(
          async () =>
            ((await call(bids, { method: 'GET', cookie: who.cookie })).json as unknown as unknown[])
              .length,
          {
            timeout: 10_000,
          },
        )
        .toBe(1)
      const own = (await call(bids, { method: 'GET', cookie: who.cookie }))
        .json as unknown as Array<{
        user: { username: string }
      }>
      expect(own.map((row) => row.user.username)).toEqual([who.name])
      const prebids = async () =>
        (
          (await call('/api/prebids/user', { method: 'GET', cookie: who.cookie }))
            .json as unknown as Array<{ auction: { id: string } }>
        ).map((row) => row.auction.id)
      await expect.poll(prebids, { timeout: 10_000 }).toEqual([upcoming.id])
    }
    // Without a session there is nothing to read.
    expect((await call('/api/bids/user', { method: 'GET' })).status).toBe(401)
    expect((await call('/api/prebids/user', { method: 'GET' })).status).toBe(401)
  })

  test('profile, orders, auto-bidder and payment of another person, by id in paths, bodies and queries', async () => {
    const a = await account()
    const b = await account()
    const upcoming = await createAuction({
      title: `Чужой автобид ${unique()}`,
      startsInMs: 3_600_000,
    })
    const order = await createOrder(a.id, upcoming.id)
    expect(
      (await call(`/api/auctions/${upcoming.id}/autobid`, { cookie: a.cookie, body: { bids: 3 } }))
        .status,
    ).toBe(200)
    const checkout = await postPage(
      '/topup',
      { form: { intent: 'buy', packageId: 'bids-50' } },
      { cookie: a.cookie },
    )
    const payment = /\/payments\/sandbox\/([^/?#]+)/.exec(checkout.location ?? '')?.[1] ?? ''
    expect(payment).not.toBe('')
    const profileOf = async (who: { cookie: string }) =>
      (await call('/api/users/profile', { method: 'GET', cookie: who.cookie })).json.user as Record<
        string,
        unknown
      >
    const aBefore = await profileOf(a)
    const bBefore = await profileOf(b)
    const secrets = [a.id, a.name, order.id, payment]

    // Reading: whatever id a query names, the session decides whose data it is.
    const named = `?userId=${a.id}&id=${a.id}&username=${a.name}&orderId=${order.id}`
    for (const path of [
      '/api/auth/me',
      '/api/users/profile',
      '/api/users/stats',
      '/api/users/recent-bids',
      '/api/users/won-auctions',
      '/api/users/orders',
      '/api/bids/user',
      '/api/prebids/user',
      `/api/auctions/${upcoming.id}/autobid`,
    ]) {
      const answer = await fetch(`${inject('baseUrl')}${path}${named}`, {
        headers: { Cookie: b.cookie },
      })
      expect(answer.status, path).toBe(200)
      const text = await answer.text()
      for (const secret of secrets) expect(text, `${path} shows ${secret}`).not.toContain(secret)
    }
    for (const path of [`/topup/order/${order.id}`, `/payments/sandbox/${payment}`]) {
      const page = await getPage(path, b.cookie, 'ru')
      expect(page.status, path).toBe(404)
    }

    // Changing: ids in bodies, paths and hidden fields reach only the caller's own things.
    const hijack = {
      id: a.id,
      userId: a.id,
      username: `${b.name}x`,
      role: 'admin',
      bidBalance: 9999,
    }
    const own = { firstName: 'Бек', lastName: 'Беков', email: `${b.name}@mail.kg` }
    expect(
      (
        await call('/api/users/profile', {
          method: 'PUT',
          cookie: b.cookie,
          body: { ...hijack, ...own },
        })
      ).status,
    ).toBe(200)
    const profilePost = await postPage(
      '/profile',
      { form: { ...own, ...hijack, bidBalance: '9999', phone: '', dateOfBirth: '', gender: '' } },
      { cookie: b.cookie },
    )
    expect(profilePost.status).toBe(302)
    const delivery = {
      deliveryMethod: 'courier_bishkek',
      address: 'ул. Чужая 1',
      phone: '+996555000111',
    }
    const api = await call(`/api/users/orders/${order.id}/delivery`, {
      method: 'PUT',
      cookie: b.cookie,
      body: delivery,
    })
    expect(api.status).toBe(404)
    expect(typeof api.json.error).toBe('string')
    const form = await postPage(
      '/profile',
      { form: { intent: 'delivery', orderId: order.id, ...delivery } },
      { cookie: b.cookie },
    )
    expect(flashOf(form.cookies)?.type).toBe('error')
    expect(
      (
        await postPage(
          `/topup/order/${order.id}`,
          { form: { intent: 'pay' } },
          { cookie: b.cookie },
        )
      ).status,
    ).toBe(404)
    for (const intent of ['pay', 'decline']) {
      const paid = await postPage(
        `/payments/sandbox/${payment}`,
        { form: { intent } },
        { cookie: b.cookie },
      )
      expect(paid.status).toBe(404)
    }
    // Stopping or setting an auto-bidder is always the caller's own.
    await call(`/api/auctions/${upcoming.id}/autobid`, {
      method: 'DELETE',
      cookie: b.cookie,
      body: { userId: a.id },
    })
    await postPage(
      `/auction/${upcoming.slug}`,
      { form: { intent: 'autobidStop', userId: a.id, auctionId: upcoming.id } },
      { cookie: b.cookie },
    )

    // An admin's calls and pages, as a plain user: refused, and nothing changes.
    for (const [method, path, body] of [
      ['GET', '/api/admin/users', undefined],
      [
        'PATCH',
        `/api/admin/users/${a.id}`,
        { role: 'admin', bidBalanceAdjustment: { delta: 9999, reason: 'x' } },
      ],
      ['DELETE', `/api/admin/users/${a.id}`, undefined],
      ['GET', `/api/admin/users/${a.id}/activity`, undefined],
      ['GET', '/api/admin/orders', undefined],
      ['PATCH', `/api/admin/orders/${order.id}`, { status: 'paid' }],
    ] as const) {
      const answer = await call(path, { method, cookie: b.cookie, body })
      expect(answer.status, `${method} ${path}`).toBe(403)
      expect(typeof answer.json.error).toBe('string')
    }
    for (const [path, fields] of [
      [
        '/admin/users',
        {
          intent: 'edit',
          id: a.id,
          username: a.name,
          email: `${a.name}@mail.kg`,
          role: 'admin',
          bidBalanceDelta: '+9999',
          bidBalanceReason: 'x',
        },
      ],
      ['/admin/users', { intent: 'delete', id: a.id }],
      ['/admin/orders', { intent: 'paid', id: order.id }],
    ] as const) {
      const answer = await postPage(path, { form: fields }, { cookie: b.cookie })
      expect(answer.status, path).toBe(302)
      expect(answer.location).toBe('/')
    }

    // What is A's is as it was; B changed only B's own names.
    expect(await profileOf(a)).toEqual(aBefore)
    const bAfter = await profileOf(b)
    expect(bAfter).toMatchObject({ ...own, id: b.id, username: b.name, role: 'user' })
    expect(bAfter.bidBalance).toBe(bBefore.bidBalance)
    const autoBid = await call(`/api/auctions/${upcoming.id}/autobid`, {
      method: 'GET',
      cookie: a.cookie,
    })
    expect(autoBid.json.autoBid).toEqual({ bidsLeft: 3, placed: 0 })
    const prisma = e2eDatabase()
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      deliveryMethod: null,
      address: null,
      status: 'awaiting_payment',
    })
    expect(await prisma.payment.count({ where: { orderId: order.id } })).toBe(0)
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: payment } })).toMatchObject({
      status: 'pending',
      userId: a.id,
    })
  })
})
