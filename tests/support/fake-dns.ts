import type { LookupAddress } from 'node:dns'
import { isIP } from 'node:net'

// Name lookups for tests, answered from a table instead of the network (the tests' machines have
// no DNS of the internet). Tests that check where the server may send put it in the place of
// `node:dns/promises` with vi.mock; an unknown name fails as getaddrinfo does (ENOTFOUND).

export const FAKE_DNS: Record<string, string[]> = {
  // A push service on the public internet.
  'push.example.net': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'fcm.googleapis.com': ['142.250.74.42'],
  // Names that lead inside a network.
  localhost: ['127.0.0.1', '::1'],
  'metadata.google.internal': ['169.254.169.254'],
  'redis.internal.example': ['10.1.2.3'],
  'printer.example': ['fd12:3456:789a::1'],
  // One public address and one private: refused, whichever a connection would take.
  'mixed.example': ['93.184.215.14', '192.168.1.10'],
}

function answer(hostname: string): LookupAddress[] {
  const found = isIP(hostname) ? [hostname] : FAKE_DNS[hostname.toLowerCase()]
  if (!found) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: 'ENOTFOUND',
      hostname,
    })
  }
  return found.map((address) => ({ address, family: isIP(address) }))
}

/** `dns.promises.lookup` over the table (the `all` form and the single answer). */
export async function lookup(hostname: string, options?: { all?: boolean }) {
  const found = answer(hostname)
  return options?.all ? found : found[0]
}
