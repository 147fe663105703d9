import { expect, test, vi } from 'vitest'
import { createUser } from '../../../engine/test-support.ts'
import { newDeviceKeys, subscriptionKeys } from '../../../tests/support/push-decrypt.ts'
import { listDevices } from '~/models/push-subscription.server.ts'
import { sessionCookie } from '~/services/session.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { action, loader } from './api.users.push-subscriptions.ts'

// POST/DELETE /api/users/push-subscriptions: this device's subscription for the person signed
// in, checked as the browser's PushSubscription JSON (docs/push.md).

vi.hoisted(() => {
  process.env.VAPID_PUBLIC_KEY =
    'BDF_sFXo7PvHqpjvpYQWNDP99_ZmSNLu1Y6fQP9jNU3iGaVizNVhwf2erSQhatnnpXMDvfGgC_dckMtqnepQGuM'
  process.env.VAPID_PRIVATE_KEY = 'UB3uCxWNg276Pi_Hba91SgAKecqSBg7v_IbOpx9zXN0'
  process.env.VAPID_SUBJECT = 'mailto:alerts@auction.kg'
  // Only public addresses, as in production (the other tests name their fake push service).
  process.env.PUSH_INTERNAL_HOSTS = ''
})
// Names are answered from a table (push.example.net is public there): no test needs the internet.
vi.mock('node:dns/promises', async () => {
  const fake = await import('../../../tests/support/fake-dns.ts')
  return { lookup: fake.lookup, default: { lookup: fake.lookup } }
})

async function signedIn() {
  const user = await createUser(getPrisma())
  const id = `s-${Math.random().toString(36).slice(2)}`
  await getPrisma().session.create({
    data: { id, userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) },
  })
  return {
    userId: user.id,
    sessionId: id,
    cookie: (await sessionCookie().serialize(id)).split(';')[0]!,
  }
}

async function call(method: string, body: unknown, cookie?: string) {
  const request = new Request('http://localhost/api/users/push-subscriptions', {
    method,
    headers: {
      'Content-Type': 'application/json',
      'Accept-Language': 'en',
      'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Version/17.0 Mobile Safari/604.1',
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  // A refusal is thrown as its answer, as Remix takes it.
  const response = await action({ request, params: {}, context: {} as never }).catch(
    (thrown: unknown) => {
      if (thrown instanceof Response) return thrown
      throw thrown
    },
  )
  return { status: response.status, json: await response.json() }
}

const browserSubscription = (endpoint = `https://push.example.net/wpush/${Math.random()}`) => ({
  endpoint,
  expirationTime: null,
  keys: subscriptionKeys(newDeviceKeys()),
})

test('a signed-in person subscribes a device and unsubscribes it, both idempotent', async () => {
  const { userId, sessionId, cookie } = await signedIn()
  const subscription = browserSubscription()
  expect(await call('POST', subscription, cookie)).toEqual({
    status: 201,
    json: { subscribed: true },
  })
  expect((await call('POST', subscription, cookie)).status).toBe(201)
  const rows = await getPrisma().pushSubscription.findMany({ where: { userId } })
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({
    endpoint: subscription.endpoint,
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
    userAgent: 'Safari on iOS',
    // It ends with the session it was made in (a logout; app/services/auth.server.test.ts).
    sessionId,
  })
  const gone = { endpoint: subscription.endpoint }
  expect(await call('DELETE', gone, cookie)).toEqual({ status: 200, json: { subscribed: false } })
  expect(await call('DELETE', gone, cookie)).toEqual({ status: 200, json: { subscribed: false } })
  expect(await listDevices(userId)).toEqual([])
})

test('a device moves to the person who subscribes it last; another cannot unsubscribe it', async () => {
  const first = await signedIn()
  const second = await signedIn()
  const subscription = browserSubscription()
  await call('POST', subscription, first.cookie)
  await call('DELETE', { endpoint: subscription.endpoint }, second.cookie)
  expect(await listDevices(first.userId)).toHaveLength(1)
  await call('POST', subscription, second.cookie)
  expect(await listDevices(first.userId)).toEqual([])
  expect(await listDevices(second.userId)).toHaveLength(1)
})

test('without a session: 401', async () => {
  const answer = await call('POST', browserSubscription())
  expect(answer.status).toBe(401)
  expect(answer.json.error).toEqual(expect.any(String))
})

test('a malformed subscription is a 400 naming what is wrong', async () => {
  const { cookie } = await signedIn()
  const good = browserSubscription()
  const cases: [unknown, string][] = [
    [{ ...good, endpoint: 'http://push.example.net/x' }, 'endpoint must be the https://'],
    [{ ...good, endpoint: 'not a url' }, 'endpoint must be the https://'],
    [{ ...good, endpoint: `https://push.example.net/${'x'.repeat(3000)}` }, 'endpoint must'],
    [{ endpoint: good.endpoint }, 'keys.p256dh and keys.auth'],
    [{ ...good, keys: { ...good.keys, p256dh: good.keys.auth } }, 'keys.p256dh must be'],
    [{ ...good, keys: { ...good.keys, p256dh: `${good.keys.p256dh}!` } }, 'keys.p256dh must be'],
    [{ ...good, keys: { ...good.keys, auth: good.keys.p256dh } }, 'keys.auth must be'],
    [{ ...good, keys: { p256dh: good.keys.p256dh } }, 'keys.auth must be'],
  ]
  for (const [body, error] of cases) {
    const answer = await call('POST', body, cookie)
    expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(400)
    expect(answer.json.error).toContain(error)
  }
  expect((await call('POST', '{"endpoint":', cookie)).status).toBe(400)
  expect((await call('DELETE', { endpoint: 42 }, cookie)).json.error).toContain('endpoint must')
})

test('other methods: 405', async () => {
  const { cookie } = await signedIn()
  expect((await call('PUT', browserSubscription(), cookie)).status).toBe(405)
  const request = new Request('http://localhost/api/users/push-subscriptions')
  expect((await loader({ request })).status).toBe(405)
})

test('an endpoint at a loopback, private, link-local or unique-local address, or a name of one, is a 400', async () => {
  const { userId, cookie } = await signedIn()
  for (const endpoint of [
    'https://127.0.0.1:9200/_search',
    'https://2130706433/x',
    'https://[::1]/x',
    'https://[::ffff:10.0.0.1]/x',
    'https://10.0.0.7/wpush/1',
    'https://172.20.0.5/x',
    'https://192.168.1.1/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/x',
    'https://[fe80::1]/x',
    'https://[fd12:3456:789a::1]/x',
    'https://localhost/x',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://redis.internal.example:6379/x',
    'https://mixed.example/x',
  ]) {
    const answer = await call('POST', browserSubscription(endpoint), cookie)
    expect(answer, endpoint).toEqual({
      status: 400,
      json: {
        error: 'endpoint must be a push service on the internet, not a local or internal address',
      },
    })
  }
  expect(await call('POST', browserSubscription('https://no-such-host.example/x'), cookie)).toEqual(
    { status: 400, json: { error: 'The push service named in endpoint was not found' } },
  )
  expect(await listDevices(userId)).toEqual([])
  // A push service on the internet, by name or by address.
  for (const endpoint of ['https://fcm.googleapis.com/fcm/send/abc', 'https://142.250.74.42/x'])
    expect((await call('POST', browserSubscription(endpoint), cookie)).status).toBe(201)
  expect(await listDevices(userId)).toHaveLength(2)
})
