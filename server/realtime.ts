import type { Redis } from 'ioredis'
import type { Server as SocketServer, Socket } from 'socket.io'
import { keysOf, type Engine } from '../engine/index.ts'
import { forVisitors } from '../app/models/house-bids.ts'
import { presentAuction, presentBid, timersInSeconds } from '../app/models/live-auction.ts'
import { getSettings } from '../app/models/settings.server.ts'
import { log } from '../app/services/logger.server.ts'
import { createShardedAdapter } from '@socket.io/redis-adapter'

const BIDS_IN_UPDATE = 10
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
/**
 * Every socket is in one of these rooms, in turn as they connect, so that the 1 Hz timer map is
 * written to a few hundred sockets at a time (see sendTimers).
 */
const TIMER_ROOMS = Array.from({ length: 256 }, (_, i) => `timers:${i}`)
/**
 * About how many sockets one slice of the timer map's broadcast writes to: a few milliseconds of
 * writing (one write each), so that a bid's update waits at most that long behind it.
 */
export const TIMER_SLICE_SOCKETS = 200
/** The event that carries the leader's timer map to the other instances. */
const TIMERS_ACROSS = 'timers'
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
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
}: Options) {
  // Socket.IO's Redis adapter over Redis 7's sharded pub/sub: every instance hears every
  // broadcast on two channels of this install's own.
  const pub = redis.duplicate({ connectionName: 'socket.io:pub' })
  const sub = redis.duplicate({ connectionName: 'socket.io:sub' })
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
    socket.on('joinAuction', (id: unknown) => {
      if (typeof id !== 'string' || !AUCTION_ID.test(id)) return
      const now = Date.now()
      if (now - joins.since >= JOIN_WINDOW_MS) joins = { since: now, count: 0 }
      if (++joins.count > limits.joinsPerWindow) return
      if (!following.has(id) && following.size >= limits.auctionsPerSocket) return
      following.add(id)
      // Only an auction the engine holds has a room: an id of anything else joins nothing.
      // What the page showed may be older than the join (a start or bids in between): the
      // joining socket gets the current state at once.
      void safely(
        'join update',
        auctionUpdate(id).then((update) => {
          if (!update) following.delete(id)
          if (!update || !following.has(id) || socket.disconnected) return
          if (!socket.rooms.has(auctionRoom(id))) {
            void socket.join(auctionRoom(id))
            countViewers(id)
          }
          socket.emit('auctionUpdate', update)
        }),
      )
    })
    socket.on('leaveAuction', (id: unknown) => {
      if (typeof id !== 'string') return
      following.delete(id)
      if (!socket.rooms.has(auctionRoom(id))) return
      void socket.leave(auctionRoom(id))
      countViewers(id)
    })
    socket.on('disconnecting', () => {
      for (const room of socket.rooms) {
        if (room.startsWith('auction:')) countViewers(room.slice('auction:'.length))
      }
    })
  })

  /**
   * `{auction, bids, timers}` of one auction; its timer is the only one in the map. One update
   * goes to everyone in the room: it says what a visitor may read (app/models/house-bids.ts).
   */
  async function auctionUpdate(auctionId: string) {
    const [view, { discloseHouseBids }] = await Promise.all([
      engine.getAuctionView(auctionId, BIDS_IN_UPDATE),
      getSettings(),
    ])
    if (!view) return null
    const { state, meta, bids, at } = view
    const timers: Record<string, number> = {}
    if (state.status === 'live' && state.deadline !== null)
      timers[auctionId] = Math.max(0, state.deadline - at)
    const shown = forVisitors(
      { auction: presentAuction(state, at, meta), bids: bids.map(presentBid) },
      discloseHouseBids,
    )
    return { ...shown, timers: timersInSeconds(timers), sentAt: at }
  }

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
        const update = await auctionUpdate(auctionId)
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
  // The 1 Hz timer map (the engine's leader reads it) goes to every socket. Written to all of
  // them at once, a large audience held the event loop for hundreds of milliseconds every
  // second (one write per socket), and bids' updates waited behind it: each instance writes it
  // to its own sockets a slice at a time, letting other work in between. A slice still being
  // written when the next map comes takes the newer one.
  // The payload is the map of auction id to whole seconds left, nothing else
  // (docs/rules.md#real-time-events); a page's clock is set by each auctionUpdate's `sentAt`.
  type TimerMessage = Record<string, number>
  let latestTimers: TimerMessage | null = null
  let writingTimers = false
  async function sendTimers(message: TimerMessage) {
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
    async close() {
      clearInterval(poll)
      for (const timer of viewerCounts.values()) clearTimeout(timer)
      await Promise.all([pub.quit().catch(() => {}), sub.quit().catch(() => {})])
    },
  }
}
