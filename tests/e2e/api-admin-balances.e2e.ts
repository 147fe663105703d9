import { beforeAll, describe, expect, test } from 'vitest'
import { call, newAccount, unique } from './api.ts'
import { createAuction, e2eDatabase } from './auctions.ts'
import { adminSession } from './admin-api.ts'
import { adminLedger, balanceOf, idOf, patchUser } from './admin-balances.ts'
import { getPage, postPage } from './pages.ts'
import { buyPackage, webhook } from './payments.ts'

// Runs alone: as the rest of the admin API's tests (api-admin-*.e2e.ts), some of which change the
// bot and site settings every other file's pages show.

// An admin's changes of a bid balance (docs/decisions/028-balance-adjustments.md,
// 042-balance-set-once.md): made on the balance as it is, once however often they are sent, and
// refused out of range or when they are no change at all.

let admin = ''

beforeAll(async () => {
  admin = await adminSession()
})

describe('admin API: bid balance adjustments', () => {
  /** The admin's PATCH: its status and body. */
  const patch = (id: string, body: unknown, lang?: string) => patchUser(admin, id, body, lang)
  let adminId = ''
  beforeAll(async () => {
    adminId = await idOf(admin)
  })

  test('bids bought and spent between the admin reading the balance and saving stay', async () => {
    const person = await newAccount()
    // The admin reads the balance: 5, the registration gift.
    const read = await call(`/api/admin/users?search=${person.name}`, {
      method: 'GET',
      cookie: admin,
    })
    expect((read.json.users as Array<{ bidBalance: number }>)[0]!.bidBalance).toBe(5)

    // Meanwhile the person buys 50 bids and spends one on a prebid: 54.
    const paymentId = await buyPackage(person.cookie)
    expect((await webhook({ payment_id: paymentId })).status).toBe(200)
    const auction = await createAuction({ title: `Баланс ${unique()}`, startsInMs: 3_600_000 })
    expect(
      (await call(`/api/auctions/${auction.id}/prebid`, { cookie: person.cookie })).json,
    ).toMatchObject({ bidBalance: 54 })

    // A value guarded by the old read would undo both: refused, nothing changed.
    expect(
      await patch(person.id, {
        bidBalance: 15,
        expectedBidBalance: 5,
        bidBalanceReason: 'Компенсация',
      }),
    ).toMatchObject({
      status: 409,
      json: {
        error:
          'Баланс изменился с тех пор, как вы его видели; ничего не сохранено. Прочитайте баланс заново или отправьте изменение bidBalanceAdjustment',
      },
    })
    expect(await balanceOf(person.cookie)).toBe(54)

    // An adjustment adds to the balance as it is now.
    expect(
      await patch(person.id, { bidBalanceAdjustment: { delta: 10, reason: 'Компенсация' } }),
    ).toMatchObject({ status: 200, json: { id: person.id, bidBalance: 64 } })
    expect(await balanceOf(person.cookie)).toBe(64)
    // A value with the balance the caller saw is a compare-and-set.
    expect(
      await patch(person.id, {
        bidBalance: 60,
        expectedBidBalance: 64,
        bidBalanceReason: '  Исправление  ',
      }),
    ).toMatchObject({ status: 200, json: { bidBalance: 60 } })
    expect(await balanceOf(person.cookie)).toBe(60)
    // A plain value (the specification's call) sets the balance; the ledger keeps its difference
    // from the balance at that moment, with the admin as its author.
    expect(await patch(person.id, { bidBalance: 15 })).toMatchObject({
      status: 200,
      json: { bidBalance: 15 },
    })
    expect(await balanceOf(person.cookie)).toBe(15)

    expect(await adminLedger(person.id, 3)).toEqual([
      { amount: 10, balanceAfter: 64, reason: 'admin_adjust', adminId, note: 'Компенсация' },
      { amount: -4, balanceAfter: 60, reason: 'admin_adjust', adminId, note: 'Исправление' },
      { amount: -45, balanceAfter: 15, reason: 'admin_adjust', adminId, note: null },
    ])
    const row = await e2eDatabase().user.findUniqueOrThrow({ where: { id: person.id } })
    expect(row.bidBalance).toBe(15)
  })

  test('a change sent again with its Idempotency-Key is applied once, also when sent at once', async () => {
    const person = await newAccount()
    const send = (body: unknown, key: string) =>
      call(`/api/admin/users/${person.id}`, {
        method: 'PATCH',
        cookie: admin,
        body,
        headers: { 'Idempotency-Key': key },
      })
    const gift = { bidBalanceAdjustment: { delta: 7, reason: 'Подарок' } }
    const giftKey = `gift-${unique()}`
    const answers = await Promise.all([
      send(gift, giftKey),
      send(gift, giftKey),
      send(gift, giftKey),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(await send(gift, giftKey)).toMatchObject({ status: 200, json: { bidBalance: 12 } })
    expect(await balanceOf(person.cookie)).toBe(12)
    // A set, repeated after the balance moved, does not set it again.
    const set = { bidBalance: 30 }
    const setKey = `set-${unique()}`
    expect(await send(set, setKey)).toMatchObject({ status: 200, json: { bidBalance: 30 } })
    const auction = await createAuction({ title: `Ключ ${unique()}`, startsInMs: 3_600_000 })
    expect(
      (await call(`/api/auctions/${auction.id}/prebid`, { cookie: person.cookie })).json,
    ).toMatchObject({ bidBalance: 29 })
    expect(await send(set, setKey)).toMatchObject({ status: 200, json: { bidBalance: 29 } })
    // Another key is another change.
    expect(await send(gift, `gift-${unique()}`)).toMatchObject({ json: { bidBalance: 36 } })
    expect(await adminLedger(person.id, 3)).toEqual([
      { amount: 7, balanceAfter: 12, reason: 'admin_adjust', adminId, note: 'Подарок' },
      { amount: 18, balanceAfter: 30, reason: 'admin_adjust', adminId, note: null },
      { amount: 7, balanceAfter: 36, reason: 'admin_adjust', adminId, note: 'Подарок' },
    ])
    for (const key of ['a b', 'x'.repeat(101)]) {
      expect(await send(gift, key), key).toEqual(
        expect.objectContaining({
          status: 400,
          json: { error: 'Idempotency-Key: от 1 до 100 видимых символов ASCII, без пробелов' },
        }),
      )
    }
    expect(await balanceOf(person.cookie)).toBe(36)
  })

  test('the page form: the same rendered form sent twice changes the balance once', async () => {
    const person = await newAccount()
    const keyOf = async () => {
      const page = await getPage(`/admin/users/${person.id}/edit`, admin, 'ru')
      expect(page.status).toBe(200)
      return /name="idempotencyKey" value="([^"]+)"/.exec(page.text)?.[1]
    }
    const key = await keyOf()
    expect(key).toMatch(/^[\x21-\x7e]{1,100}$/)
    const form = {
      intent: 'edit',
      id: person.id,
      idempotencyKey: key!,
      username: person.name,
      email: `${person.name}@mail.kg`,
      firstName: '',
      lastName: '',
      phone: '',
      role: 'user',
      bidBalanceDelta: '+3',
      bidBalanceReason: 'Подарок',
    }
    // A double click, or the browser sending the form again.
    const answers = await Promise.all(
      [1, 2].map(() => postPage(`/admin/users/${person.id}/edit`, { form }, { cookie: admin })),
    )
    expect(answers.map((answer) => answer.status)).toEqual([302, 302])
    expect(
      await postPage(`/admin/users/${person.id}/edit`, { form }, { cookie: admin }),
    ).toMatchObject({
      status: 302,
    })
    expect(await balanceOf(person.cookie)).toBe(8)
    expect(await adminLedger(person.id, 1)).toEqual([
      { amount: 3, balanceAfter: 8, reason: 'admin_adjust', adminId, note: 'Подарок' },
    ])
    // The form rendered anew is a new change.
    const next = await keyOf()
    expect(next).not.toBe(key)
    expect(
      await postPage(
        `/admin/users/${person.id}/edit`,
        { form: { ...form, idempotencyKey: next! } },
        { cookie: admin },
      ),
    ).toMatchObject({ status: 302 })
    expect(await balanceOf(person.cookie)).toBe(11)
  })

  test('a debit below 0 or a credit above the maximum is refused with 409; nothing changes', async () => {
    const person = await newAccount()
    expect(
      await patch(person.id, {
        firstName: 'Изменено',
        bidBalanceAdjustment: { delta: -6, reason: 'Списание' },
      }),
    ).toEqual({
      status: 409,
      json: {
        error:
          'Нельзя списать больше ставок, чем есть на балансе: он не может стать меньше 0. Ничего не сохранено',
      },
    })
    expect(
      await patch(person.id, { bidBalanceAdjustment: { delta: -6, reason: 'Debit' } }, 'en'),
    ).toMatchObject({
      status: 409,
      json: {
        error:
          'You cannot take away more bids than the balance holds: it cannot go below 0. Nothing was saved',
      },
    })
    expect(
      await patch(person.id, { bidBalanceAdjustment: { delta: 10_000_000, reason: 'Много' } }),
    ).toMatchObject({
      status: 409,
      json: { error: 'Баланс не может стать больше 10 000 000 ставок. Ничего не сохранено' },
    })
    expect(await balanceOf(person.cookie)).toBe(5)
    // Postgres holds the registration's 5 free bids once the outbox has written them.
    const row = () => e2eDatabase().user.findUniqueOrThrow({ where: { id: person.id } })
    await expect.poll(async () => (await row()).bidBalance, { timeout: 10_000 }).toBe(5)
    expect(await row()).toMatchObject({ firstName: null, bidBalance: 5 })

    // Down to 0 exactly is allowed.
    expect(
      await patch(person.id, { bidBalanceAdjustment: { delta: -5, reason: 'Списание' } }),
    ).toMatchObject({ status: 200, json: { bidBalance: 0 } })
    expect(await adminLedger(person.id, 1)).toEqual([
      { amount: -5, balanceAfter: 0, reason: 'admin_adjust', adminId, note: 'Списание' },
    ])
  })

  test('bad input answers 400 with its error, never 500', async () => {
    const person = await newAccount()
    const delta =
      'Изменение баланса — целое число ставок со знаком + или −, не 0 и по модулю не больше 10 000 000'
    const reason = 'Укажите причину изменения баланса'
    const adjust = (value: unknown) => ({ bidBalanceAdjustment: value })
    for (const [body, error] of [
      [adjust({ delta: 1.5, reason: 'x' }), delta],
      [adjust({ delta: 0, reason: 'x' }), delta],
      [adjust({ delta: '5 бонус', reason: 'x' }), delta],
      [adjust({ delta: null, reason: 'x' }), delta],
      [adjust({ reason: 'x' }), delta],
      [adjust({ delta: 10_000_001, reason: 'x' }), delta],
      [adjust({ delta: -1e21, reason: 'x' }), delta],
      [adjust({ delta: 1e300, reason: 'x' }), delta],
      [adjust({ delta: 5 }), reason],
      [adjust({ delta: 5, reason: '   ' }), reason],
      [adjust({ delta: 5, reason: 'x'.repeat(201) }), 'Слишком длинное значение'],
      [adjust({ delta: 5, reason: 42 }), 'Ошибка валидации'],
      [adjust({ delta: 5, reason: 'x', admin: 'someone' }), 'Ошибка валидации'],
      [adjust(5), 'Ошибка валидации'],
      [
        { bidBalance: 10, bidBalanceAdjustment: { delta: 5, reason: 'x' } },
        'Отправьте либо изменение баланса, либо новый баланс, но не оба сразу',
      ],
      [{ bidBalance: 10, expectedBidBalance: 5 }, reason],
      [{ expectedBidBalance: 5 }, 'Ошибка валидации'],
      [
        { bidBalance: 1e300, expectedBidBalance: 5, bidBalanceReason: 'x' },
        'Баланс ставок — целое число от 0',
      ],
      [
        { bidBalance: 10, expectedBidBalance: -1, bidBalanceReason: 'x' },
        'Баланс ставок — целое число от 0',
      ],
    ] as const) {
      expect(await patch(person.id, body), JSON.stringify(body)).toEqual({
        status: 400,
        json: { error },
      })
    }
    // A number JSON can write but not hold: Infinity once parsed.
    const infinite = await call(`/api/admin/users/${person.id}`, {
      method: 'PATCH',
      cookie: admin,
      raw: '{"bidBalanceAdjustment": {"delta": 1e999, "reason": "x"}}',
    })
    expect(infinite).toMatchObject({ status: 400, json: { error: delta } })
    expect(await balanceOf(person.cookie)).toBe(5)
    expect(await adminLedger(person.id, 0)).toEqual([])
  })
})
