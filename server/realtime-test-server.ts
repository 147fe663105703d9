import { createServer } from 'node:http'
import { Server } from 'socket.io'
import type { Engine } from '../engine/index.ts'
import { attachRealtime } from './realtime.ts'

// For the realtime tests (realtime.test.ts, realtime-presence.test.ts): the realtime layer on a
// real Socket.IO server of this host, as server/app.ts attaches it.

type Options = Parameters<typeof attachRealtime>[0]

/**
 * The realtime layer on `engine` behind a new Socket.IO server that allows any origin, with
 * `options` (the session a handshake's cookie stands for, at least) over that; `listen` opens
 * it on a free port of 127.0.0.1.
 */
export function realtimeServer(
  engine: Engine,
  options: Pick<Options, 'sessionFromCookie'> & Partial<Options>,
) {
  const http = createServer()
  const io = new Server(http)
  const realtime = attachRealtime({
    io,
    engine,
    redis: engine.redis,
    prefix: engine.keys.base.slice(1, -2),
    isAllowedOrigin: () => true,
    ...options,
  })
  const listen = () => new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  return { http, io, realtime, listen }
}
