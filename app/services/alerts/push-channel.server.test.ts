import { afterAll, beforeAll, expect, test } from 'vitest'
import webpush from 'web-push'
import { createUser } from '../../../engine/test-support.ts'
import { decryptPush } from '../../../tests/support/push-decrypt.ts'
import {
  checkVapid,
  startPushService,
  type FakeDevice,
  type FakePushService,
} from '../../../tests/support/push-service-fake.ts'
import { listDevices, saveSubscription } from '~/models/push-subscription.server.ts'
import { pushChannel } from '~/services/alerts/push-channel.server.ts'
import type { AlertMessage } from '~/services/alerts/channel.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// The push channel against a local push service that checks VAPID as RFC 8292 says and keeps the
// encrypted body; the test decrypts it with the device's keys (tests/support/push-decrypt.ts).

const keys = webpush.generateVAPIDKeys()
const vapid = { ...keys, subject: 'mailto:alerts@auction.kg' }
let fake: FakePushService

beforeAll(async () => {
  fake = await startPushService()
})
afterAll(async () => {
  await fake.close()
})

const channel = () => pushChannel({ vapid, agent: fake.agent })

const message = (kind: AlertMessage['kind'] = 'outbid'): AlertMessage => ({
  kind,
  language: 'ru',
  title: 'Вашу ставку перебили',
  body: 'iPhone 15 — 12,40 сом',
  url: 'https://auction.kg/auction/iphone-15',
})

async function personWith(count: number) {
  const user = await createUser(getPrisma())
  const devices: FakeDevice[] = []
  for (let i = 0; i < count; i++) {
    const device = fake.subscribe(vapid.publicKey)
    await saveSubscription(
      user.id,
      device.subscription,
      'Mozilla/5.0 (Linux; Android 14) Chrome/130',
    )
    devices.push(device)
  }
  return { userId: user.id, devices }
}

const receivedBy = (device: FakeDevice) =>
  fake.received.filter((push) => push.endpoint === device.subscription.endpoint)

test('an alert reaches every device, signed, encrypted, and each device reads it', async () => {
  const { userId, devices } = await personWith(2)
  expect(await channel().reachable([userId])).toEqual(new Set([userId]))
  expect(await channel().send(userId, message())).toEqual({ status: 'sent' })
  for (const device of devices) {
    const [push] = receivedBy(device)
    expect(push).toBeDefined()
    expect(push!.claims.aud).toBe(fake.origin)
    expect(push!.claims.sub).toBe(vapid.subject)
    expect(push!.urgency).toBe('high')
    expect(push!.ttl).toBe(300)
    expect(JSON.parse(decryptPush(push!.body, device.keys))).toEqual({
      title: 'Вашу ставку перебили',
      body: 'iPhone 15 — 12,40 сом',
      url: 'https://auction.kg/auction/iphone-15',
    })
  }
})

test('an order reminder is kept longer and is not urgent', async () => {
  const { userId, devices } = await personWith(1)
  expect(await channel().send(userId, message('paymentCredited'))).toEqual({ status: 'sent' })
  const [push] = receivedBy(devices[0]!)
  expect(push!.urgency).toBe('normal')
  expect(push!.ttl).toBe(86_400)
})

test('an endpoint answering 410 or 404 is forgotten; the last one gone makes the person gone', async () => {
  const { userId, devices } = await personWith(2)
  fake.expire(devices[0]!.subscription.endpoint)
  expect(await channel().send(userId, message())).toEqual({ status: 'sent' })
  expect((await listDevices(userId)).map((d) => d.endpoint)).toEqual([
    devices[1]!.subscription.endpoint,
  ])
  fake.answerNext(devices[1]!.subscription.endpoint, { status: 404 })
  expect(await channel().send(userId, message())).toEqual({ status: 'gone' })
  expect(await listDevices(userId)).toEqual([])
  expect(await channel().reachable([userId])).toEqual(new Set())
  expect(await channel().send(userId, message())).toEqual({ status: 'unreachable' })
})

test("429 and 503 are retried after the service's Retry-After; the device is kept", async () => {
  const { userId, devices } = await personWith(1)
  const endpoint = devices[0]!.subscription.endpoint
  fake.answerNext(endpoint, { status: 429, retryAfter: '7' })
  expect(await channel().send(userId, message())).toMatchObject({
    status: 'retry',
    retryAfterMs: 7_000,
  })
  const later = new Date(Date.now() + 120_000).toUTCString()
  fake.answerNext(endpoint, { status: 503, retryAfter: later })
  const outcome = await channel().send(userId, message())
  expect(outcome.status).toBe('retry')
  const wait = outcome.status === 'retry' ? (outcome.retryAfterMs ?? 0) : 0
  expect(wait).toBeGreaterThan(100_000)
  expect(wait).toBeLessThanOrEqual(120_000)
  expect(await listDevices(userId)).toHaveLength(1)
  expect(await channel().send(userId, message())).toEqual({ status: 'sent' })
  expect(receivedBy(devices[0]!)).toHaveLength(1)
})

test('a device subscribed with another key pair refuses the site (403): failed, not retried', async () => {
  const user = await createUser(getPrisma())
  const device = fake.subscribe(webpush.generateVAPIDKeys().publicKey)
  await saveSubscription(user.id, device.subscription, null)
  const outcome = await channel().send(user.id, message())
  expect(outcome).toEqual({ status: 'failed', reason: 'push service answered 403' })
  expect(await listDevices(user.id)).toHaveLength(1)
})

test('without VAPID keys the channel is off and sends nothing', async () => {
  const { userId } = await personWith(1)
  const off = pushChannel({ vapid: null, agent: fake.agent })
  expect(off.enabled()).toBe(false)
  expect(await off.reachable([userId])).toEqual(new Set())
  expect(await off.send(userId, message())).toEqual({ status: 'unreachable' })
})

test('the fake push service refuses what RFC 8292 refuses', () => {
  const header = (audience: string, expiration?: number, privateKey = vapid.privateKey) =>
    webpush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      privateKey,
      'aes128gcm',
      expiration,
    ).Authorization
  const valid = header(fake.origin)
  expect(checkVapid(valid, fake.origin).ok).toBe(true)
  expect(checkVapid(header('https://elsewhere.example'), fake.origin)).toMatchObject({ ok: false })
  // web-push signs for 12 hours: a day later it has expired; seen 13 hours earlier, its
  // expiry is more than the 24 hours RFC 8292 §2 allows.
  const hour = 3_600_000
  expect(checkVapid(valid, fake.origin, Date.now() + 24 * hour)).toMatchObject({ ok: false })
  expect(checkVapid(valid, fake.origin, Date.now() - 13 * hour)).toMatchObject({ ok: false })
  // Signed with another private key than the k it names.
  const forged = header(fake.origin, undefined, webpush.generateVAPIDKeys().privateKey)
  expect(checkVapid(forged, fake.origin)).toEqual({ ok: false, why: 'bad signature' })
  expect(checkVapid(undefined, fake.origin)).toEqual({ ok: false, why: 'no vapid authorization' })
})
