import { afterAll, afterEach, expect, test } from 'vitest'
import { startTelegramSite, tgUser } from '../support/telegram-site.ts'
import type { TgUser } from '../support/telegram-fake.ts'

// The verified phone and its free bids (docs/rules.md#verified-phone-and-free-bids): the bot's
// contact button, the checks on what is shared, and "free bids need a verified phone", which
// gives the 5 free bids once per number ever. Money stays exact: the ledger adds up to the
// balances in Redis and Postgres.

const site = await startTelegramSite()
const { fake, prisma, engine, outbox } = site
afterAll(() => site.stop())
afterEach(() => site.setFreeBidsNeedPhone(false))

const { FREE_BIDS, freeBidsReference } = await import('~/models/user.server.ts')
const { kyrgyzPhone, phoneFreeBidsReference } = await import('~/models/verified-phone.server.ts')
const { profileTelegram } = await import('~/services/telegram/profile.server.ts')

const lastTo = (chatId: number) => fake.sentTo(chatId).at(-1)?.text ?? ''
let nextPhone = 700_000_000 + Math.floor(Math.random() * 99_000_000)
const newPhone = () => `996${nextPhone++}`
/** The same Telegram person moves their chat to another account: /stop, then its link. */
async function moveChat(person: TgUser, userId: string) {
  await fake.text(person, '/stop')
  await site.linked(userId, person)
}
const ownContact = (from: TgUser, phone: string) =>
  fake.contact(from, { phone_number: phone, user_id: from.id, first_name: from.first_name })

/** The account's ledger, and that it adds up to its balance in Redis and in Postgres. */
async function exactLedger(userId: string) {
  await outbox.drain()
  const rows = await prisma.balanceLedger.findMany({
    where: { userId },
    select: { amount: true, reference: true },
    orderBy: { createdAt: 'asc' },
  })
  const sum = rows.reduce((total, row) => total + row.amount, 0)
  const { bidBalance } = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
  expect(await engine.getBalance(userId)).toBe(sum)
  expect(bidBalance).toBe(sum)
  return rows.map((row) => row.reference)
}

test('a Kyrgyz number is normalised with or without its +, others are not one', () => {
  expect(kyrgyzPhone('996555123456')).toBe('+996555123456')
  expect(kyrgyzPhone('+996 555 12-34-56')).toBe('+996555123456')
  expect(kyrgyzPhone('+7 701 123 45 67')).toBeNull()
  expect(kyrgyzPhone('99655512345')).toBeNull()
})

test('the person’s own +996 contact verifies the phone; the profile shows it', async () => {
  const user = await site.newUser()
  const person = tgUser('en')
  await site.linked(user.id, person)
  expect(await profileTelegram(user.id)).toEqual({
    linked: true,
    verifiedPhone: null,
    freeBidsOnPhone: false,
  })
  const phone = newPhone()
  expect((await ownContact(person, phone)).status).toBe(200)
  expect(lastTo(person.id)).toBe(`Number +${phone} verified.`)
  expect(fake.sentTo(person.id).at(-1)?.replyMarkup).toEqual({ remove_keyboard: true })
  expect(await profileTelegram(user.id)).toMatchObject({ verifiedPhone: `+${phone}` })
  // The setting is off: the free bids came with the registration, and no more with the phone.
  expect(await exactLedger(user.id)).toEqual([freeBidsReference(user.id)])
})

test('someone else’s contact, or a number that is not +996, is refused with a message', async () => {
  const user = await site.newUser()
  const person = tgUser('ru')
  await site.linked(user.id, person)
  await fake.contact(person, { phone_number: newPhone(), user_id: person.id + 1, first_name: 'A' })
  expect(lastTo(person.id)).toContain('Подтвердить можно только свой номер')
  await fake.contact(person, { phone_number: newPhone(), first_name: 'No user id' })
  expect(lastTo(person.id)).toContain('Подтвердить можно только свой номер')
  await ownContact(person, '77011234567')
  expect(lastTo(person.id)).toBe('Подходит только номер Кыргызстана (+996).')
  expect(await profileTelegram(user.id)).toMatchObject({ verifiedPhone: null })
  expect(await prisma.verifiedPhone.count({ where: { firstUserId: user.id } })).toBe(0)
})

test('a contact from a chat not linked is not taken', async () => {
  const person = tgUser('en')
  await ownContact(person, newPhone())
  expect(lastTo(person.id)).toContain('not linked')
})

test('with the setting on, the free bids come with the phone, once per number ever', async () => {
  await site.setFreeBidsNeedPhone(true)
  const first = await site.newUser()
  expect(await engine.getBalance(first.id)).toBe(0)
  expect(await profileTelegram(first.id)).toMatchObject({ freeBidsOnPhone: true })
  const person = tgUser('en')
  await site.linked(first.id, person)
  const phone = newPhone()
  // Shared twice at the same moment (a double tap): given once.
  await Promise.all([ownContact(person, phone), ownContact(person, `+${phone}`)])
  expect(fake.sentTo(person.id).map((m) => m.text)).toContain(
    `Number +${phone} verified. Free bids credited: ${FREE_BIDS}.`,
  )
  expect(await exactLedger(first.id)).toEqual([phoneFreeBidsReference(`+${phone}`)])
  expect(await engine.getBalance(first.id)).toBe(FREE_BIDS)
  expect(await profileTelegram(first.id)).toMatchObject({ freeBidsOnPhone: false })

  // A second account verifying the same number gets nothing; the number is now its phone.
  const second = await site.newUser()
  await moveChat(person, second.id)
  await ownContact(person, phone)
  expect(lastTo(person.id)).toBe(`Number +${phone} verified.`)
  expect(await exactLedger(second.id)).toEqual([])
  expect(await profileTelegram(second.id)).toMatchObject({
    verifiedPhone: `+${phone}`,
    freeBidsOnPhone: true,
  })
  expect(await profileTelegram(first.id)).toMatchObject({ verifiedPhone: null })

  // The same account verifying again gets nothing more; a fresh number still gives the second
  // account its bids.
  await moveChat(person, first.id)
  await ownContact(person, phone)
  expect(await exactLedger(first.id)).toEqual([phoneFreeBidsReference(`+${phone}`)])
  await moveChat(person, second.id)
  const fresh = newPhone()
  await ownContact(person, fresh)
  expect(await exactLedger(second.id)).toEqual([phoneFreeBidsReference(`+${fresh}`)])
})

test('with the setting off, registration gives the free bids as before', async () => {
  const user = await site.newUser()
  expect(await engine.getBalance(user.id)).toBe(FREE_BIDS)
  expect(await profileTelegram(user.id)).toMatchObject({ freeBidsOnPhone: false })
  expect(await exactLedger(user.id)).toEqual([freeBidsReference(user.id)])
})
