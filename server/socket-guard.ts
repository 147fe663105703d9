import type { IncomingMessage } from 'node:http'
import type { Server as SocketServer, ServerOptions } from 'socket.io'
import { clientKey } from '../app/services/rate-limit.server.ts'

// Socket.IO's own limits (docs/operations.md#real-time-limits). Clients send only auction ids
// (`joinAuction`, `leaveAuction`): a message of a few KB is far above what they need and keeps a
// client from making the server buffer a megabyte per message. One address may hold only so many
// connections on this instance, counted as the rate limits count addresses (an IPv6 /64 is one).

/**
 * The largest message a client may send: one websocket frame, or one long-polling request's
 * body (the browser's client packs its messages into bodies no larger, as the handshake tells it).
 * A larger one closes the websocket or is answered 413.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024

/** What a refused handshake answers (403 for long polling; 400 for a websocket upgrade). */
export const TOO_MANY_CONNECTIONS = 'Too many connections from this address'

type EngineConnection = {
  request: IncomingMessage
  once(event: 'close', listener: () => void): unknown
}

export function socketGuard({
  perAddress,
  addressOf,
}: {
  /** Connections one address may hold on this instance (SOCKETS_PER_ADDRESS). */
  perAddress: number
  /** The trusted client address of a handshake (server/client-address.ts). */
  addressOf: (req: IncomingMessage) => string
}) {
  const open = new Map<string, number>()
  /** Handshakes let through and not yet connected, with the address they count for. */
  const pending = new WeakMap<IncomingMessage, string>()
  const release = (key: string) => {
    const left = (open.get(key) ?? 1) - 1
    if (left > 0) open.set(key, left)
    else open.delete(key)
  }

  const options = {
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    // Asked for each new connection (not for a connection's later requests or its upgrade):
    // its place is taken here, so that handshakes arriving together cannot pass the cap.
    allowRequest(req: IncomingMessage, answer: (message: string | null, ok: boolean) => void) {
      const key = clientKey(addressOf(req))
      const count = open.get(key) ?? 0
      if (count >= perAddress) return answer(TOO_MANY_CONNECTIONS, false)
      open.set(key, count + 1)
      pending.set(req, key)
      // A handshake that fails after this never becomes a connection: its request's end frees
      // the place.
      req.once('close', () => {
        if (pending.get(req) !== key) return
        pending.delete(req)
        release(key)
      })
      answer(null, true)
    },
  } satisfies Partial<ServerOptions>

  return {
    options,
    /** Frees an address's place when its connection closes. */
    attach(io: SocketServer) {
      io.engine.on('connection', (connection: EngineConnection) => {
        let key = pending.get(connection.request)
        if (key === undefined) {
          // Its request ended (and gave its place back) before the connection was made: it
          // counts again from here.
          key = clientKey(addressOf(connection.request))
          open.set(key, (open.get(key) ?? 0) + 1)
        }
        pending.delete(connection.request)
        const counted = key
        connection.once('close', () => release(counted))
      })
    },
  }
}
