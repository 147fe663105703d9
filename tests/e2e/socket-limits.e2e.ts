import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { METRICS_TOKEN, waitFor } from '../setup/stack.ts'
import { secondServer } from './second-server.ts'

// Socket.IO's limits (docs/operations.md#real-time-limits): a message of a few KB at most, a
// cap on the connections one address holds, and `/readyz` that tells the public only whether the
// instance is ready.

const sockets: Socket[] = []
afterAll(() => {
  for (const socket of sockets) socket.close()
})

/** How each socket's opening ended, heard from its creation on (it may end before it is asked). */
const outcomes = new WeakMap<Socket, Promise<string>>()

function connect(url: string, headers: Record<string, string> = {}): Socket {
  const socket = io(url, {
    transports: ['websocket'],
    extraHeaders: headers,
    reconnection: false,
    timeout: 5000,
  })
  outcomes.set(
    socket,
    new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('connect'))
      socket.once('connect_error', (error) => resolve(`refused: ${error.message}`))
    }),
  )
  sockets.push(socket)
  return socket
}

/** `connect` when the socket opened, else the refusal's message. */
function opened(socket: Socket) {
  return outcomes.get(socket)!
}

/** Why the socket was closed, or `still open` after a few seconds. */
function disconnected(socket: Socket) {
  return new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve('still open'), 5_000)
    socket.once('disconnect', (reason) => {
      clearTimeout(timer)
      resolve(reason)
    })
  })
}

/** A long-polling handshake as a browser without websockets starts it: status and body. */
async function pollingHandshake(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/socket.io/?EIO=4&transport=polling`, { headers })
  return { status: response.status, body: await response.text() }
}

describe('message size', () => {
  test('a message over the limit closes its socket; small ones are taken', async () => {
    const url = inject('baseUrl')
    const small = connect(url)
    const big = connect(url)
    expect(await opened(small)).toBe('connect')
    expect(await opened(big)).toBe('connect')
    const closed = disconnected(big)
    big.emit('joinAuction', 'x'.repeat(10_000))
    expect(await closed).toMatch(/transport (close|error)/)
    // The other socket is untouched, and a message of ordinary size goes through.
    small.emit('joinAuction', 'not-an-auction')
    expect(small.connected).toBe(true)
  })

  test('long polling: the handshake names the limit and a larger body is refused', async () => {
    const url = inject('baseUrl')
    const { status, body } = await pollingHandshake(url)
    expect(status).toBe(200)
    const open = JSON.parse(body.slice(1)) as { sid: string; maxPayload: number }
    expect(open.maxPayload).toBeLessThanOrEqual(8 * 1024)
    expect(open.maxPayload).toBeGreaterThanOrEqual(1024)
    const post = await fetch(`${url}/socket.io/?EIO=4&transport=polling&sid=${open.sid}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
      body: `42["joinAuction","${'x'.repeat(10_000)}"]`,
    })
    expect(post.status).toBe(413)
  })
})

describe('connections per address', () => {
  const start = secondServer('sockcap')
  let url = ''
  beforeAll(async () => {
    // Behind one proxy, so that the test can speak for many addresses.
    url = await start({ SOCKETS_PER_ADDRESS: '3', TRUST_PROXY: '1' })
  })

  test('one address (an IPv6 /64 counts as one) is refused past the cap, with the reason', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address })
    const held = [
      connect(url, from('2001:db8:7:1::1')),
      connect(url, from('2001:db8:7:1::2')),
      connect(url, from('2001:db8:7:1:aaaa::3')),
    ]
    for (const socket of held) expect(await opened(socket)).toBe('connect')

    // A fourth from the same /64, by websocket or by long polling: refused, saying why.
    const fourth = connect(url, from('2001:db8:7:1::4'))
    expect(await opened(fourth)).toMatch(/^refused/)
    const polled = await pollingHandshake(url, from('2001:db8:7:1::5'))
    expect(polled.status).toBe(403)
    expect(polled.body).toContain('Too many connections from this address')

    // Another network is not affected.
    expect(await opened(connect(url, from('2001:db8:7:2::1')))).toBe('connect')
    expect(await opened(connect(url, from('203.0.113.9')))).toBe('connect')

    // Once one of them closes, the address may open one again.
    held[0]!.close()
    await waitFor(
      'a free place for the address',
      async () => (await opened(connect(url, from('2001:db8:7:1::6')))) === 'connect',
      5_000,
    )
  })
})

describe('/readyz', () => {
  test('the public learns only whether the instance is ready', async () => {
    const response = await fetch(`${inject('baseUrl')}/readyz`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ status: 'ready' })
    const wrong = await fetch(`${inject('baseUrl')}/readyz`, {
      headers: { Authorization: 'Bearer not-the-metrics-token' },
    })
    expect(await wrong.json()).toEqual({ status: 'ready' })
  })

  test('with the metrics token: the checks and the outbox lag', async () => {
    const response = await fetch(`${inject('baseUrl')}/readyz`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toMatchObject({ status: 'ready', ready: true, redis: 'ok', database: 'ok' })
    expect(typeof body.outboxLag).toBe('number')
  })
})
