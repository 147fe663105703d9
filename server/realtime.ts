import type { Redis } from 'ioredis'
import type { Server as SocketServer, Socket } from 'socket.io'
import { duplicateRedis, keysOf, type Engine } from '../engine/index.ts'
import { timersInSeconds } from '../app/models/auction-json.ts'
import { log } from '../app/utils/logger.server.ts'
import { createShardedAdapter } from '@socket.io/redis-adapter'
import { pagePresence } from './realtime-presence.ts'
import { auctionUpdate } from './realtime-update.ts'
import { TIMER_ROOMS, timerWriter, type TimerMessage } from './realtime-timers.ts'

export { TIMER_SLICE_SOCKETS } from './realtime-timers.ts'

const VIEWERS_DEBOUNCE_MS = 300
const auctionRoom = (id: string) => `auction:${id}`
/** What an auction id may look like (ids are made by the database: short letters and digits). */
const AUCTION_ID = /^[A-Za-z0-9_-]{1,64}$/
/**
 * Auctions one socket may follow at once: far above the longest list a page shows, low enough
 * that no socket holds much memory.
 */
const MAX_AUCTIONS_PER_SOCKET = 200
/** Joins one socket may ask for in a window; more are ignored until the next window. */
const JOINS_PER_WINDOW = 200
const JOIN_WINDOW_MS = 10_000
const userRoom = (id: string) => `user:${id}`
const sessionRoom = (id: string) => `session:${id}`
/** The event that carries the leader's timer map to the other instances. */
const TIMERS_ACROSS = 'timers'
/** How often an instance counts the instances sharing its rooms. */
export const PEER_POLL_MS = 1_000

type Options = {
  io: SocketServer
  engine: Engine
  redis: Redis
  prefix: string
  /** Resolves the signed-in session (its id and user) from a handshake's Cookie header. */
  sessionFromCookie: (cookie: string | undefined) => Promise<{ id: string; userId: string } | null>
  /** Origins allowed to open a socket (the site's own). */
  isAllowedOrigin: (origin: string | undefined, host: string | undefined) => boolean
  /** How many auctions one socket may follow, and join in a window (defaults below). */
  limits?: { auctionsPerSocket: number; joinsPerWindow: number }
  /** How often the open auction pages are renewed in Redis (tests shorten it). */
  presenceRenewMs?: number
}

/**
 * Socket.IO on the same server (docs/architecture.md#real-time): clients join auction rooms; engine
 * events become `auctionUpdate` for the room, `bidBalanceUpdate` for the user's own room and a
 * 1 Hz `timerUpdate` for everyone, written in slices; a session's end closes its sockets. The
 * Redis adapter shares rooms across instances.
 */
export function attachRealtime({
  io,
  engine,
  redis,
  prefix,
  sessionFromCookie,
  isAllowedOrigin,
  limits = { auctionsPerSocket: MAX_AUCTIONS_PER_SOCKET, joinsPerWindow: JOINS_PER_WINDOW },
  presenceRenewMs,
}: Options) {
  // Socket.IO's Redis adapter over Redis 7's sharded pub/sub: every instance hears every
  // broadcast on two channels of this install's own.
  const pub = duplicateRedis(redis, log, 'socket.io:pub')
  const sub = duplicateRedis(redis, log, 'socket.io:sub')
  io.adapter(
    createShardedAdapter(pub, sub, {
      channelPrefix: keysOf(prefix).socketIoChannels,
      subscriptionMode: 'static',
    }),
  )
  // How many other instances share the rooms, counted every PEER_POLL_MS: an auction update
  // nobody can receive (no socket here follows it and no other instance runs) is not built.
  let others = 0
  const countOthers = async () => {
    try {
      others = Math.max(0, (await io.of('/').adapter.serverCount()) - 1)
    } catch {
      // Redis out of reach: build updates as if others listened, until it answers again.
      others = Math.max(others, 1)
    }
  }
  const counted = countOthers()
  const poll = setInterval(() => void countOthers(), PEER_POLL_MS)
  poll.unref()

  io.use((socket, next) => {
    const { origin, host } = socket.handshake.headers
    if (!isAllowedOrigin(origin, host)) return next(new Error('origin not allowed'))
    sessionFromCookie(socket.handshake.headers.cookie)
      .then((session) => {
        socket.data.userId = session?.userId ?? null
        socket.data.sessionId = session?.id ?? null
        next()
      })
      .catch(() => next(new Error('session check failed')))
  })

  // How many sockets follow an auction right now (on every instance), sent to its room a
  // moment after people join or leave; this replaces a made-up "online visitors" figure.
  const viewerCounts = new Map<string, NodeJS.Timeout>()
  const countViewers = (auctionId: string) => {
    if (viewerCounts.has(auctionId)) return
    viewerCounts.set(
      auctionId,
      setTimeout(() => {
        viewerCounts.delete(auctionId)
        const room = auctionRoom(auctionId)
        void safely(
          'viewer count',
          io
            .in(room)
            .fetchSockets()
            .then((sockets) => {
              io.to(room).emit('viewers', { auctionId, count: sockets.length })
            }),
        )
      }, VIEWERS_DEBOUNCE_MS),
    )
  }

  const presence = pagePresence(redis, prefix, { renewMs: presenceRenewMs })
  let joined = 0
  io.on('connection', (socket: Socket) => {
    const userId = socket.data.userId as string | null
    const sessionId = socket.data.sessionId as string | null
    if (userId) void socket.join(userRoom(userId))
    if (sessionId) void socket.join(sessionRoom(sessionId))
    void socket.join(TIMER_ROOMS[joined++ % TIMER_ROOMS.length]!)
    // The window starts at the socket's first join after the last one ended.
    let joins = { since: 0, count: 0 }
    // Auctions the socket asked to follow and has not left, joined or still being looked up.
    const following = new Set<string>()
    // Those of them joined from the auction's own page (a subset: as bounded).
    const pages = new Set<string>()
    socket.on('joinAuction', (id: unknown, options?: unknown) => {
      if (typeof id !== 'string' || !AUCTION_ID.test(id)) return
      const now = Date.now()
      if (now - joins.since >= JOIN_WINDOW_MS) joins = { since: now, count: 0 }
      if (++joins.count > limits.joinsPerWindow) return
      if (!following.has(id) && following.size >= limits.auctionsPerSocket) return
      following.add(id)
      if ((options as { page?: unknown } | null)?.page === true) pages.add(id)
      // Only an auction the engine holds has a room: an id of anything else joins nothing.
      // What the page showed may be older than the join (a start or bids in between): the
      // joining socket gets the current state at once.
      void safely(
        'join update',
        auctionUpdate(engine, id).then((update) => {
          if (!update) {
            following.delete(id)
            pages.delete(id)
          }
          if (!update || !following.has(id) || socket.disconnected) return
          if (!socket.rooms.has(auctionRoom(id))) {
            void socket.join(auctionRoom(id))
            countViewers(id)
          }
          // The auction's own page says so: no outbid alert reaches its person meanwhile.
          // Counted only here, for a join the limits let through of an auction that exists
          // (docs/decisions/075-one-client-cannot-hurt-everyone.md).
          if (userId && pages.has(id)) presence.here({ socketId: socket.id, userId, auctionId: id })
          socket.emit('auctionUpdate', update)
        }),
      )
    })
    socket.on('leaveAuction', (id: unknown) => {
      if (typeof id !== 'string') return
      following.delete(id)
      pages.delete(id)
      if (userId) presence.gone({ socketId: socket.id, userId, auctionId: id })
      if (!socket.rooms.has(auctionRoom(id))) return
      void socket.leave(auctionRoom(id))
      countViewers(id)
    })
    socket.on('disconnecting', () => {
      presence.socketGone(socket.id)
      for (const room of socket.rooms) {
        if (room.startsWith('auction:')) countViewers(room.slice('auction:'.length))
      }
    })
  })

  // One update in flight per auction: bids that arrive meanwhile are sent together in the next
  // one (it carries the latest state and recent bids), so a busy auction costs one read-back
  // and one broadcast per round trip rather than per bid, and a quiet one gets each at once.
  //
  // An update nobody can receive is not built at all: no socket here follows the auction and no
  // other instance (whose sockets this one cannot see) is running. Whoever joins later is sent
  // the current state on joining.
  const wanted = new Map<string, boolean>()
  const followed = (auctionId: string) =>
    others > 0 || io.sockets.adapter.rooms.has(auctionRoom(auctionId))
  async function sendAuctionUpdate(auctionId: string) {
    if (!followed(auctionId)) return
    if (wanted.has(auctionId)) {
      wanted.set(auctionId, true)
      return
    }
    try {
      do {
        wanted.set(auctionId, false)
        const update = await auctionUpdate(engine, auctionId)
        if (update) io.to(auctionRoom(auctionId)).emit('auctionUpdate', update)
      } while (wanted.get(auctionId))
    } finally {
      wanted.delete(auctionId)
    }
  }

  const safely = (what: string, promise: Promise<unknown>) =>
    promise.catch((error: unknown) => log.warn(`realtime ${what} failed`, { error: String(error) }))

  engine.on('bid', ({ auctionId }) => void safely('bid update', sendAuctionUpdate(auctionId)))
  engine.on('prebid', ({ auctionId }) => void safely('prebid update', sendAuctionUpdate(auctionId)))
  engine.on('started', ({ auctionIds }) => {
    for (const id of auctionIds) void safely('start update', sendAuctionUpdate(id))
  })
  engine.on('finished', ({ auctionIds }) => {
    for (const id of auctionIds) void safely('finish update', sendAuctionUpdate(id))
  })
  // The new balance goes with the event: the header shows it without reading anything again.
  engine.on('balance', ({ userId, balance }) => {
    io.to(userRoom(userId)).emit('bidBalanceUpdate', { userId, bidBalance: balance })
  })
  engine.on('autobid', ({ auctionId, userId }) => {
    io.to(userRoom(userId)).emit('autoBidUpdate', { auctionId })
  })
  // A signed-in socket keeps the user it was opened with: when its session ends (or all of the
  // account's do), it is closed on whichever instance holds it. A page that is still open
  // connects again (app/utils/socket.tsx), as whoever its cookie now names.
  engine.on('signedOut', (ended) => {
    const room = 'sessionId' in ended ? sessionRoom(ended.sessionId) : userRoom(ended.userId)
    io.in(room).disconnectSockets(true)
  })
  const sendTimers = timerWriter(io)
  engine.on('timers', ({ timers }) => {
    const message = timersInSeconds(timers)
    // Once a second, to whoever else runs (an instance started a moment ago included).
    io.serverSideEmit(TIMERS_ACROSS, message)
    void safely('timer update', sendTimers(message))
  })
  io.on(TIMERS_ACROSS, (message: TimerMessage) => {
    void safely('timer update', sendTimers(message))
  })

  return {
    /** Resolves once the instances sharing the rooms were first counted. */
    ready: () => counted,
    /** How many auction pages this instance counts open (docs/rules.md#real-time-events). */
    pagesOpen: () => presence.size(),
    async close() {
      clearInterval(poll)
      presence.close()
      for (const timer of viewerCounts.values()) clearTimeout(timer)
      await Promise.all([pub.quit().catch(() => {}), sub.quit().catch(() => {})])
    },
  }
}
