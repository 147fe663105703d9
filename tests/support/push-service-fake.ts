import { execFileSync } from 'node:child_process'
import { createPublicKey, randomUUID, verify } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent, createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { newDeviceKeys, subscriptionKeys, type DeviceKeys } from './push-decrypt.ts'

// A local push service for tests only (never the internet), from the published protocol:
// RFC 8030 (Web Push: POST to the subscription's endpoint, TTL and Urgency headers, 201 Created
// with a Location, 404/410 for a subscription that is gone, 429 with Retry-After), RFC 8292
// (VAPID: `Authorization: vapid t=<JWT>, k=<key>`, an ES256 JWT verified with k, `aud` this
// service's origin, `exp` at most 24 hours ahead, a `sub` contact; 401 otherwise, 403 for a key
// the subscription was not made with) and RFC 8291/8188 (the body is aes128gcm, kept as received
// for the test to decrypt). It listens on HTTPS with a certificate made for it; `agent` trusts it.
// https://www.rfc-editor.org/rfc/rfc8030  https://www.rfc-editor.org/rfc/rfc8292

export type FakeDevice = {
  /** What the browser's PushSubscription.toJSON() gives. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } }
  keys: DeviceKeys
}

export type ReceivedPush = {
  endpoint: string
  ttl: number
  urgency: string
  /** The verified VAPID claims. */
  claims: { aud: string; exp: number; sub: string }
  body: Buffer
}

/** A status answered once to the next push to an endpoint (and a Retry-After in seconds). */
export type ProgrammedAnswer = { status: number; retryAfter?: string }

const URGENCIES = new Set(['very-low', 'low', 'normal', 'high'])
const MAX_BODY = 4096

function certificate() {
  const dir = mkdtempSync(path.join(tmpdir(), 'push-fake-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'pipe' },
    )
    return {
      key: readFileSync(path.join(dir, 'key.pem')),
      cert: readFileSync(path.join(dir, 'cert.pem')),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The VAPID claims of a valid Authorization header for `origin` and `serverKey`; else why not. */
export function checkVapid(
  header: string | undefined,
  origin: string,
  now = Date.now(),
): { ok: true; key: string; claims: ReceivedPush['claims'] } | { ok: false; why: string } {
  const match = /^vapid\s+(.+)$/i.exec(header ?? '')
  if (!match) return { ok: false, why: 'no vapid authorization' }
  const params = Object.fromEntries(
    match[1]!.split(',').map((part) => {
      const at = part.indexOf('=')
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()]
    }),
  )
  const token = params.t
  const key = params.k
  if (!token || !key) return { ok: false, why: 'vapid needs t and k' }
  const [head, payload, signature, ...rest] = token.split('.')
  if (!head || !payload || !signature || rest.length > 0) return { ok: false, why: 'not a JWT' }
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'))
    if (header.alg !== 'ES256') return { ok: false, why: `alg ${header.alg}` }
    const point = Buffer.from(key, 'base64url')
    if (point.length !== 65 || point[0] !== 4) return { ok: false, why: 'k is not a P-256 key' }
    const publicKey = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    })
    const signed = verify(
      'sha256',
      Buffer.from(`${head}.${payload}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    )
    if (!signed) return { ok: false, why: 'bad signature' }
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    if (claims.aud !== origin) return { ok: false, why: `aud ${claims.aud}` }
    const seconds = now / 1000
    if (typeof claims.exp !== 'number' || claims.exp <= seconds || claims.exp > seconds + 86_400) {
      return { ok: false, why: `exp ${claims.exp}` }
    }
    if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
      return { ok: false, why: `sub ${claims.sub}` }
    }
    return { ok: true, key, claims }
  } catch (error) {
    return { ok: false, why: String(error) }
  }
}

export async function startPushService() {
  const { key, cert } = certificate()
  /** Endpoint path -> the application server key it was subscribed with. */
  const subscriptions = new Map<string, string>()
  const gone = new Set<string>()
  const programmed = new Map<string, ProgrammedAnswer[]>()
  const received: ReceivedPush[] = []
  let origin = ''

  function answer(res: ServerResponse, status: number, headers: Record<string, string> = {}) {
    res.writeHead(status, headers).end()
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const pathname = new URL(req.url ?? '/', origin).pathname
    if (req.method !== 'POST') return answer(res, 405)
    if (gone.has(pathname)) return answer(res, 410)
    const serverKey = subscriptions.get(pathname)
    if (!serverKey) return answer(res, 404)
    const vapid = checkVapid(req.headers.authorization, origin)
    if (!vapid.ok) return answer(res, 401, { 'X-Refused': vapid.why })
    if (vapid.key !== serverKey) return answer(res, 403)
    const next = programmed.get(pathname)?.shift()
    if (next) {
      return answer(res, next.status, next.retryAfter ? { 'Retry-After': next.retryAfter } : {})
    }
    const ttl = req.headers.ttl
    const urgency = String(req.headers.urgency ?? 'normal')
    if (typeof ttl !== 'string' || !/^\d+$/.test(ttl) || !URGENCIES.has(urgency)) {
      return answer(res, 400)
    }
    if (body.length > MAX_BODY) return answer(res, 413)
    if (body.length > 0 && req.headers['content-encoding'] !== 'aes128gcm') return answer(res, 415)
    received.push({
      endpoint: `${origin}${pathname}`,
      ttl: Number(ttl),
      urgency,
      claims: vapid.claims,
      body,
    })
    answer(res, 201, { Location: `${origin}/message/${randomUUID()}`, TTL: ttl })
  }

  const server: Server = createServer({ key, cert }, (req, res) => {
    handle(req, res).catch(() => answer(res, 500))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  const pathOf = (endpoint: string) => new URL(endpoint).pathname
  function newEndpoint(applicationServerKey: string) {
    const id = `/push/${randomUUID()}`
    subscriptions.set(id, applicationServerKey)
    return `${origin}${id}`
  }

  return {
    origin,
    /** An HTTPS agent that trusts this service's certificate. */
    agent: new Agent({ ca: cert }),
    /** The certificate (PEM), for a process that must trust it (NODE_EXTRA_CA_CERTS). */
    certificate: cert.toString('utf8'),
    received,
    /** A new browser's subscription, made for the site's VAPID public key. */
    subscribe(applicationServerKey: string): FakeDevice {
      const device = newDeviceKeys()
      return {
        subscription: {
          endpoint: newEndpoint(applicationServerKey),
          keys: subscriptionKeys(device),
        },
        keys: device,
      }
    },
    /** A new endpoint for a browser that made its own keys, subscribed with the site's key. */
    newEndpoint,
    /** The next push to `endpoint` gets this answer (once). */
    answerNext(endpoint: string, programmedAnswer: ProgrammedAnswer) {
      const list = programmed.get(pathOf(endpoint)) ?? []
      list.push(programmedAnswer)
      programmed.set(pathOf(endpoint), list)
    },
    /** The browser unsubscribed: 410 Gone from now on. */
    expire(endpoint: string) {
      gone.add(pathOf(endpoint))
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type FakePushService = Awaited<ReturnType<typeof startPushService>>
