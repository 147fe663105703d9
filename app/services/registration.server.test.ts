import { expect, test } from 'vitest'
import { OutboxWorker } from '../../engine/index.ts'
import {
  appEngine,
  loginRequest as request,
  newAccount as account,
  signUp,
  uniqueName,
} from '../../tests/support/accounts.ts'
import { todayFreeGrants } from '~/models/admin-users.server.ts'
import { verifyPhone } from '~/models/verified-phone.server.ts'
import { freeBidsPerAddress, hitFromAddress, limits, scaled } from '~/services/rate-limit.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { register } from './registration.server.ts'

// Registration as the /login page and the JSON API share it: its outcomes, each with the status
// both answer with.

const unique = () => uniqueName('rg')
const newAccount = (clientIp?: string) => account('rg', clientIp)

test('registration gives the free bids; a taken username (of a person or a bot) or email is a 409', async () => {
  const { engine, username, userId } = await newAccount('10.0.7.1')
  expect(await engine.getBalance(userId)).toBe(5)
  const user = await getPrisma().user.findUniqueOrThrow({ where: { id: userId } })
  expect(user).toMatchObject({ username, email: `${username}@mail.kg`, ipAddress: '10.0.7.1' })
  expect(user.passwordHash).toMatch(/^\$argon2id\$/)

  const context = { engine, clientIp: '10.0.7.2' }
  expect(
    await register(request(), context, {
      username: username.toUpperCase(),
      email: `${unique()}@mail.kg`,
      password: 'secret12',
    }),
  ).toEqual({ ok: false, status: 409, field: 'username', message: 'validation.usernameTaken' })
  expect(
    await register(request(), context, {
      username: unique(),
      email: `${username}@mail.kg`,
      password: 'secret12',
    }),
  ).toEqual({ ok: false, status: 409, field: 'email', message: 'validation.emailTaken' })
  const bot = await getPrisma().bot.create({
    data: { username: unique(), firstName: 'Бот', lastName: 'Ботов' },
  })
  expect(
    await register(request(), context, {
      username: bot.username,
      email: `${unique()}@mail.kg`,
      password: 'secret12',
    }),
  ).toMatchObject({ ok: false, status: 409, field: 'username' })
})

test('registrations past the per-IP limit are a 429 and create nobody', async () => {
  const engine = appEngine()
  const allowed = Math.max(1, Math.round(limits.registerPerIp.limit * getEnv().RATE_LIMIT_SCALE))
  const clientIp = '10.0.8.1'
  // Refused attempts count too, so taken names reach the limit without making accounts.
  const { username } = await newAccount(clientIp)
  for (let i = 1; i < allowed; i += 1) {
    const taken = await signUp(engine, clientIp, username, `${unique()}@mail.kg`)
    expect(taken).toMatchObject({ status: 409 })
  }
  const name = unique()
  const limited = await signUp(engine, clientIp, name)
  expect(limited).toMatchObject({ ok: false, status: 429 })
  expect(await getPrisma().user.count({ where: { username: name } })).toBe(0)
})

test('the addresses of one IPv6 /64 share one registration allowance; another /64 is not held back', async () => {
  const engine = appEngine()
  const allowed = Math.max(1, Math.round(limits.registerPerIp.limit * getEnv().RATE_LIMIT_SCALE))
  const attempt = (clientIp: string) => signUp(engine, clientIp, unique())
  // One subscriber's /64: every attempt from a new address of it, as a farm of accounts would.
  for (let i = 1; i <= allowed; i += 1) {
    expect(await attempt(`2001:db8:64:1:${i.toString(16)}::${i.toString(16)}`)).toMatchObject({
      ok: true,
    })
  }
  expect(await attempt('2001:db8:64:1:ffff:ffff:ffff:ffff')).toMatchObject({
    ok: false,
    status: 429,
  })
  expect(await attempt('2001:db8:64:2::1')).toMatchObject({ ok: true })
  // 32 password hashes (argon2id), one after another: a busy machine needs more than the default.
}, 90_000)

test('one address gets free bids at registration for a few accounts a day; the next wait for a verified phone', async () => {
  const engine = appEngine()
  const allowed = scaled(freeBidsPerAddress().limit)
  // The admin settings page counts today's grants as the ledger has them, once the outbox has
  // written them.
  const outbox = new OutboxWorker(engine, 'registration-test', getEnv().DATABASE_URL)
  await outbox.drain()
  const before = await todayFreeGrants()
  // All but one of the day's allowance of an IPv6 /64, spent earlier today.
  for (let i = 1; i < allowed; i += 1)
    expect(await hitFromAddress('free-bids-ip', '2001:db8:75::1', freeBidsPerAddress())).toBe(0)
  const last = await newAccount('2001:db8:75::2')
  expect(await engine.getBalance(last.userId)).toBe(5)
  expect(last.freeBidsOnPhone).toBe(false)

  // Past it the account is made (a carrier's address is many people's) and its free bids wait
  // for a verified phone, as with "free bids need a verified phone".
  const past = await newAccount('2001:db8:75:0:ffff::3')
  expect(await engine.getBalance(past.userId)).toBe(0)
  // The page's registration says so (its toast and the welcome), instead of bids on the balance.
  expect(past.freeBidsOnPhone).toBe(true)
  expect(
    await getPrisma().user.findUniqueOrThrow({
      where: { id: past.userId },
      select: { freeBidsPending: true, freeBidsOnPhone: true },
    }),
  ).toEqual({ freeBidsPending: false, freeBidsOnPhone: true })
  expect(await verifyPhone(engine, past.userId, '+996 700 075 001')).toMatchObject({
    ok: true,
    granted: true,
  })
  expect(await engine.getBalance(past.userId)).toBe(5)

  // Another address is not held back; every grant of today is counted.
  const other = await newAccount('2001:db8:76::1')
  expect(await engine.getBalance(other.userId)).toBe(5)
  await outbox.drain()
  expect(await todayFreeGrants()).toBe(before + 3)
  await outbox.stop()
})
