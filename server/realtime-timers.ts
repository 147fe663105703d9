// The 1 Hz timer map's broadcast to this instance's sockets (server/realtime.ts).
import type { Server as SocketServer } from 'socket.io'

/**
 * Every socket is in one of these rooms, in turn as they connect, so that the 1 Hz timer map is
 * written to a few hundred sockets at a time (see sendTimers).
 */
export const TIMER_ROOMS = Array.from({ length: 256 }, (_, i) => `timers:${i}`)
/**
 * About how many sockets one slice of the timer map's broadcast writes to: a few milliseconds of
 * writing (one write each), so that a bid's update waits at most that long behind it.
 */
export const TIMER_SLICE_SOCKETS = 200
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

// The 1 Hz timer map (the engine's leader reads it) goes to every socket. Written to all of
// them at once, a large audience held the event loop for hundreds of milliseconds every
// second (one write per socket), and bids' updates waited behind it: each instance writes it
// to its own sockets a slice at a time, letting other work in between. A slice still being
// written when the next map comes takes the newer one.
// The payload is the map of auction id to whole seconds left, nothing else
// (docs/rules.md#real-time-events); a page's clock is set by each auctionUpdate's `sentAt`.
export type TimerMessage = Record<string, number>

export function timerWriter(io: SocketServer) {
  let latestTimers: TimerMessage | null = null
  let writingTimers = false
  return async function sendTimers(message: TimerMessage) {
    latestTimers = message
    if (writingTimers) return
    writingTimers = true
    try {
      let slice: string[] = []
      let sockets = 0
      for (const room of TIMER_ROOMS) {
        const size = io.sockets.adapter.rooms.get(room)?.size ?? 0
        if (size === 0) continue
        slice.push(room)
        sockets += size
        if (sockets < TIMER_SLICE_SOCKETS) continue
        io.local.to(slice).emit('timerUpdate', latestTimers)
        slice = []
        sockets = 0
        await nextTurn()
      }
      if (slice.length) io.local.to(slice).emit('timerUpdate', latestTimers)
    } finally {
      writingTimers = false
    }
  }
}
