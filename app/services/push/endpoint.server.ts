import { lookup as lookupCallback, type LookupAddress } from 'node:dns'
import { lookup } from 'node:dns/promises'
import { Agent } from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { forgetEndpoint } from '~/models/push-subscription.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// A Web Push endpoint comes from the browser, and the server POSTs to it: only an address on the
// public internet is sent to (docs/push.md#subscriptions). Its host is resolved and every address
// it resolves to must be public: not loopback, private, shared (carrier NAT), link-local,
// unique-local, multicast, documentation or otherwise reserved, as IANA's special-purpose
// registries list them (https://www.iana.org/assignments/iana-ipv4-special-registry/,
// https://www.iana.org/assignments/iana-ipv6-special-registry/, RFC 6890). It is checked when a
// device subscribes and again before each send; the connection itself looks its host up through
// the same rule (publicLookup), so a name that resolves elsewhere by then is refused too.
// PUSH_INTERNAL_HOSTS names push services on a private network that may be reached anyway.

const NOT_PUBLIC = new BlockList()
for (const [network, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, bits, 'ipv4')
for (const [network, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, bits, 'ipv6')

/** NAT64's well-known prefix (RFC 6052): the IPv4 address it carries decides. */
const NAT64 = new BlockList()
NAT64.addSubnet('64:ff9b::', 96, 'ipv6')

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function groupsOf(address: string): number[] {
  const parts = (text: string) =>
    text
      ? text.split(':').flatMap((part) => {
          if (!part.includes('.')) return [parseInt(part, 16)]
          const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number)
          return [(a << 8) | b, (c << 8) | d]
        })
      : []
  const [head = '', tail] = address.split('::')
  const front = parts(head)
  const back = tail === undefined ? [] : parts(tail)
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back]
}

/** Whether an IP address is one of the public internet's. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '')
  const family = isIP(bare)
  if (family === 4) return !NOT_PUBLIC.check(bare, 'ipv4')
  if (family !== 6) return false
  // An IPv4-mapped address (::ffff:a.b.c.d) is checked against the IPv4 blocks by BlockList.
  if (NOT_PUBLIC.check(bare, 'ipv6')) return false
  if (NAT64.check(bare, 'ipv6')) {
    const groups = groupsOf(bare)
    const [high = 0, low = 0] = groups.slice(6)
    return isPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`)
  }
  return true
}

/** Whether the operator named this endpoint's host (and port) in PUSH_INTERNAL_HOSTS. */
function isInternalHost(url: URL, internal: readonly string[]) {
  return internal.includes(url.hostname) || internal.includes(url.host)
}

/** How long a host's lookup may take before the check gives up. */
const LOOKUP_MS = 5_000

export type Resolve = (hostname: string) => Promise<string[]>

const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((found) => found.address)

type Check =
  { ok: true } | { ok: false; why: 'malformed' | 'notPublic' | 'unknownHost' | 'lookupFailed' }

/**
 * Whether the server may send to this endpoint: an https URL whose host is, or resolves only
 * to, public addresses (or a host the operator named internal).
 */
export async function checkEndpoint(
  endpoint: string,
  {
    resolve = systemResolve,
    internal = getEnv().PUSH_INTERNAL_HOSTS ?? [],
  }: { resolve?: Resolve; internal?: readonly string[] } = {},
): Promise<Check> {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return { ok: false, why: 'malformed' }
  }
  if (url.protocol !== 'https:' || !url.hostname) return { ok: false, why: 'malformed' }
  if (isInternalHost(url, internal)) return { ok: true }
  // An IPv6 address without its brackets; a name without the root's dot.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
  let addresses: string[]
  if (isIP(host)) addresses = [host]
  else {
    let timer: NodeJS.Timeout | undefined
    try {
      addresses = await Promise.race([
        resolve(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_MS)
        }),
      ])
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code
      return {
        ok: false,
        why: code === 'ENOTFOUND' || code === 'ENODATA' ? 'unknownHost' : 'lookupFailed',
      }
    } finally {
      clearTimeout(timer)
    }
  }
  if (addresses.length === 0) return { ok: false, why: 'unknownHost' }
  return addresses.every(isPublicAddress) ? { ok: true } : { ok: false, why: 'notPublic' }
}

/** A subscription's endpoint the site does not keep: the answer's status and message key. */
export async function refusedSubscription(
  endpoint: string,
): Promise<{ status: number; key: `push:errors.${string}` } | null> {
  const check = await checkEndpoint(endpoint)
  if (check.ok) return null
  if (check.why === 'lookupFailed') return { status: 503, key: 'push:errors.endpointLookup' }
  if (check.why === 'notPublic') return { status: 400, key: 'push:errors.endpointPrivate' }
  if (check.why === 'unknownHost') return { status: 400, key: 'push:errors.endpointHost' }
  return { status: 400, key: 'push:errors.endpoint' }
}

/**
 * Checked again before each send (a device kept before the rule, a name that now resolves
 * elsewhere): null when the device may be sent to. An endpoint that is not public is forgotten,
 * as one its push service says is gone; a lookup that fails is tried again later.
 */
export async function refusedBeforeSend(
  endpoint: string,
): Promise<{ status: 'gone' } | { status: 'retry'; reason: string } | null> {
  const check = await checkEndpoint(endpoint)
  if (check.ok) return null
  if (check.why === 'lookupFailed' || check.why === 'unknownHost')
    return { status: 'retry', reason: `push endpoint's host not resolved (${check.why})` }
  await forgetEndpoint(endpoint)
  return { status: 'gone' }
}

/**
 * A lookup for the connection to a push service that answers only public addresses (or any for
 * a host named in PUSH_INTERNAL_HOSTS): between the check and the connection a name may come to
 * resolve elsewhere. https://nodejs.org/api/net.html#socketconnectoptions-connectlistener
 */
export function publicLookup(
  internal: readonly string[] = getEnv().PUSH_INTERNAL_HOSTS ?? [],
  dnsLookup: typeof lookupCallback = lookupCallback,
): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0)
      const trusted = internal
        .map((entry) => entry.replace(/:\d+$/, ''))
        .includes(hostname.toLowerCase())
      const refused = trusted ? undefined : found.find((entry) => !isPublicAddress(entry.address))
      if (refused || found.length === 0) {
        const denied = Object.assign(
          new Error(`push endpoint ${hostname} resolves to ${refused?.address ?? 'nothing'}`),
          { code: 'EPUSHNOTPUBLIC' },
        )
        return callback(denied, '', 0)
      }
      if (options.all) return (callback as (e: null, all: LookupAddress[]) => void)(null, found)
      callback(null, found[0]!.address, found[0]!.family)
    })
  }
}

let agent: Agent | undefined
/** The HTTPS agent for sends to push services: connections only to public addresses. */
export function pushAgent(): Agent {
  agent ??= new Agent({ keepAlive: true, lookup: publicLookup() })
  return agent
}
