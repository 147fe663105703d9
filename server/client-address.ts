import type { IncomingMessage } from 'node:http'
import proxyAddr from 'proxy-addr'
import type { Env } from '../app/utils/env.server.ts'

/**
 * Which peers are trusted proxies (TRUST_PROXY): a hop count, counted from this server outwards,
 * or the proxies' addresses and subnets. Express (its `trust proxy` setting, for `req.ip`) and
 * Socket.IO's handshakes (server/socket-guard.ts) use this one function, so that both name the
 * same client address.
 */
export function trustedProxies(
  setting: Env['TRUST_PROXY'],
): (address: string, hop: number) => boolean {
  if (typeof setting === 'number') return (_address, hop) => hop < setting
  return proxyAddr.compile(setting)
}

/** The client's address of a raw request, read through the trusted proxies only. */
export function clientAddress(
  req: IncomingMessage,
  trust: (address: string, hop: number) => boolean,
): string {
  return proxyAddr(req, trust)
}
