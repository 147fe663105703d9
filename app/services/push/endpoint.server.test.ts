import { EventEmitter } from 'node:events'
import https, { Agent } from 'node:https'
import type { LookupAddress } from 'node:dns'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import webpush from 'web-push'
import { createUser } from '../../../engine/test-support.ts'
import { newDeviceKeys, subscriptionKeys } from '../../../tests/support/push-decrypt.ts'
import { FAKE_DNS } from '../../../tests/support/fake-dns.ts'
import { listDevices } from '~/models/push-subscription.server.ts'
import { pushChannel } from '~/services/alerts/push-channel.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { checkEndpoint, isPublicAddress, publicLookup } from './endpoint.server.ts'

// Web Push endpoints reach only public addresses (docs/push.md#subscriptions): checked when a
// device subscribes (app/routes/api/api.users.push-subscriptions.test.ts), again before each
// send, and by the connection's own lookup. Names are looked up in tests/support/fake-dns.ts and
// the push channel's HTTP client is intercepted: no test here opens a connection anywhere.

vi.hoisted(() => {
  process.env.PUSH_INTERNAL_HOSTS = ''
})
vi.mock('node:dns/promises', async () => {
  const fake = await import('../../../tests/support/fake-dns.ts')
  return { lookup: fake.lookup, default: { lookup: fake.lookup } }
})

/** The host of every request the push channel's HTTP client was asked to make; each fails at once. */
let requests: string[] = []
beforeEach(() => {
  requests = []
  vi.spyOn(https, 'request').mockImplementation(((options: { hostname: string }) => {
    requests.push(options.hostname)
    const request = Object.assign(new EventEmitter(), {
      write: () => true,
      end: () => {
        setImmediate(() =>
          request.emit('error', Object.assign(new Error('intercepted'), { code: 'ECONNRESET' })),
        )
      },
      destroy: () => {},
      setTimeout: () => {},
    })
    return request
  }) as unknown as typeof https.request)
})
afterEach(() => {
  vi.restoreAllMocks()
})

test('addresses of loopback, private, shared, link-local, unique-local and reserved blocks are not public', () => {
  for (const address of [
    '8.8.8.8',
    '93.184.215.14',
    '142.250.74.42',
    '2a00:1450:4001:80b::200a',
    // NAT64 of 8.8.8.8 (RFC 6052): a network with DNS64 reaches public services so.
    '64:ff9b::808:808',
  ])
    expect(isPublicAddress(address), address).toBe(true)
  for (const address of [
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '192.0.0.8',
    '198.18.0.1',
    '203.0.113.9',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456:789a::1',
    'fec0::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:a00:1',
    '64:ff9b::a00:1',
    '64:ff9b:1::1',
    '2001:db8::1',
    '2002:7f00:1::1',
    'not an address',
  ])
    expect(isPublicAddress(address), address).toBe(false)
})

test('an endpoint must be https and name, or resolve only to, public addresses', async () => {
  const check = (endpoint: string, internal: string[] = []) => checkEndpoint(endpoint, { internal })
  expect(await check('https://push.example.net/wpush/1')).toEqual({ ok: true })
  expect(await check('https://fcm.googleapis.com/fcm/send/abc')).toEqual({ ok: true })
  expect(await check('https://142.250.74.42/x')).toEqual({ ok: true })
  for (const endpoint of [
    'https://127.0.0.1/x',
    'https://127.1/x',
    'https://2130706433/x',
    'https://0x7f000001/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[fe80::1]/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://localhost/x',
    'https://LOCALHOST./x',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://redis.internal.example:6379/x',
    'https://printer.example/x',
    'https://mixed.example/x',
  ])
    expect(await check(endpoint), endpoint).toEqual({ ok: false, why: 'notPublic' })
  expect(await check('https://no-such-host.example/x')).toEqual({ ok: false, why: 'unknownHost' })
  expect(await check('http://push.example.net/x')).toEqual({ ok: false, why: 'malformed' })
  // A push service the operator runs inside the network, named in PUSH_INTERNAL_HOSTS.
  expect(await check('https://redis.internal.example:8443/x', ['redis.internal.example'])).toEqual({
    ok: true,
  })
  expect(await check('https://127.0.0.1:8443/x', ['127.0.0.1:8443'])).toEqual({ ok: true })
  expect(await check('https://127.0.0.1:9200/x', ['127.0.0.1:8443'])).toEqual({
    ok: false,
    why: 'notPublic',
  })
})

async function deviceAt(userId: string, endpoint: string) {
  await getPrisma().pushSubscription.create({
    data: { userId, endpoint, ...subscriptionKeys(newDeviceKeys()) },
  })
}

const message = {
  kind: 'outbid',
  language: 'en',
  title: 'You were outbid',
  body: 'iPhone 15',
  url: 'https://auction.kg/auction/iphone-15',
} as const

test('before a send, a device kept at an address that is not public is forgotten, never sent to', async () => {
  const keys = webpush.generateVAPIDKeys()
  const channel = pushChannel({ vapid: { ...keys, subject: 'mailto:alerts@auction.kg' } })
  const person = await createUser(getPrisma())
  // Kept before the rule, or named when it still resolved elsewhere.
  const inside = [
    'https://127.0.0.1:9200/_search',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]:6379/x',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://redis.internal.example/x',
  ]
  for (const endpoint of inside) await deviceAt(person.id, endpoint)
  expect(await channel.send(person.id, message)).toEqual({ status: 'gone' })
  expect(requests).toEqual([])
  expect(await listDevices(person.id)).toEqual([])

  // A public push service beside one inside: only the public one is asked (here the
  // intercepted client fails, so the alert is to be tried again), the other is forgotten.
  await deviceAt(person.id, 'https://push.example.net/wpush/1')
  await deviceAt(person.id, 'https://10.0.0.7/wpush/2')
  expect(await channel.send(person.id, message)).toMatchObject({ status: 'retry' })
  expect(requests).toEqual(['push.example.net'])
  expect((await listDevices(person.id)).map((device) => device.endpoint)).toEqual([
    'https://push.example.net/wpush/1',
  ])
})

test("the connection's own lookup refuses a name that has come to resolve inside the network", async () => {
  // As if the name had been public when it was checked and points inside now.
  const rebound = (hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
    const found: LookupAddress[] =
      hostname === 'push.example.net'
        ? [{ address: '10.0.0.7', family: 4 }]
        : (FAKE_DNS[hostname] ?? []).map((address) => ({ address, family: 4 }))
    callback(null, found)
  }
  const lookupOf = (internal: string[]) =>
    publicLookup(internal, rebound as unknown as Parameters<typeof publicLookup>[1])
  const resolved = (internal: string[], hostname: string) =>
    new Promise<unknown>((resolve) =>
      lookupOf(internal)(hostname, { all: true }, (error, found) =>
        resolve(error ? (error as NodeJS.ErrnoException).code : found),
      ),
    )
  expect(await resolved([], 'push.example.net')).toBe('EPUSHNOTPUBLIC')
  expect(await resolved([], 'fcm.googleapis.com')).toEqual([
    { address: '142.250.74.42', family: 4 },
  ])
  expect(await resolved(['push.example.net'], 'push.example.net')).toEqual([
    { address: '10.0.0.7', family: 4 },
  ])

  // Through a real HTTPS request with that lookup: it fails before any connection is made.
  vi.mocked(https.request).mockRestore()
  const agent = new Agent({ lookup: lookupOf([]) })
  const failure = await new Promise<NodeJS.ErrnoException>((resolve) => {
    const request = https.request('https://push.example.net/wpush/1', { agent, method: 'POST' })
    request.on('error', resolve)
    request.end()
  })
  expect(failure.code).toBe('EPUSHNOTPUBLIC')
  agent.destroy()
})
