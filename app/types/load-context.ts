import '@remix-run/node'
import type { Engine } from '../../engine/index.ts'

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Per-request nonce for inline scripts (Content-Security-Policy). */
    cspNonce: string
    /** The client's address, as far as the configured trusted proxies allow. */
    clientIp: string
    /** Request id, also sent back in the X-Request-Id header and written in logs. */
    requestId: string
    /** The bid engine: live auctions and bid balances (Redis). */
    engine: Engine
  }
}
