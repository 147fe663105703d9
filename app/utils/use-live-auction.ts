import { useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import type { LiveAuction } from '~/models/auction-json.ts'
import type { LiveBid } from '~/models/bid-json.ts'
import type { AuctionView } from '~/models/auction-view.server.ts'
import { useSocket } from '~/utils/socket.tsx'
import type { RecordHead } from '~/types/record.ts'

const toMinor = (som: number) => Math.round(som * 100)

export type LiveView = AuctionView & { bids: LiveBid[] }

/** What a pushed update (or a polled auction from the JSON API) says about an auction. */
export type LiveUpdate = {
  auction: LiveAuction & { lastBidderId?: string | null }
  bids?: LiveBid[]
  /** The record's head after these bids; null while it is being caught up. */
  record?: RecordHead | null
}

/** The fields of an auction that change while it runs. */
type LiveFields = Pick<
  AuctionView,
  | 'status'
  | 'currentPrice'
  | 'totalBids'
  | 'prebidsCount'
  | 'lastBidder'
  | 'lastBidderIsBot'
  | 'lastBidderId'
>

type Stage = Pick<AuctionView, 'status' | 'totalBids'>

const STAGE = { upcoming: 0, live: 1, finished: 2 } as const

/**
 * Whether `next` says less than what is shown: an earlier stage, or fewer bids in the same one.
 * Updates can arrive out of order (a joining socket's own update read before a bid and sent
 * after its broadcast, updates from two instances, a loader result read before an update), and
 * an auction never goes back: such an update is dropped, not shown.
 */
export function isOlder(next: Stage, shown: Stage): boolean {
  const stage = STAGE[next.status] - STAGE[shown.status]
  return stage < 0 || (stage === 0 && next.totalBids < shown.totalBids)
}

/** An auction as an update leaves it (money back to minor units). */
export function applyLiveUpdate<T extends LiveFields>(
  current: T,
  { auction: a, bids }: LiveUpdate,
): T {
  return {
    ...current,
    status: a.status,
    currentPrice: toMinor(a.currentPrice),
    totalBids: a.totalBids,
    prebidsCount: a.prebidsCount,
    lastBidder: a.lastBidder,
    lastBidderIsBot: a.lastBidderIsBot,
    lastBidderId:
      bids?.[0]?.user?.id ??
      (a.lastBidderIsBot
        ? null
        : a.lastBidderId !== undefined
          ? a.lastBidderId
          : current.lastBidderId),
  }
}

/** The moment (monotonic clock) a timer with `timeLeft` ms to go runs out. */
const deadlineOf = (timeLeft: number | null) =>
  timeLeft === null ? null : performance.now() + timeLeft

/**
 * A deadline checked against the 1 Hz `timerUpdate` (whole seconds left): kept while it is
 * within a second of the server's, else the server's.
 */
function resynced(deadline: number, secondsLeft: number): number {
  const server = performance.now() + secondsLeft * 1000
  return Math.abs(server - deadline) > 1000 ? server : deadline
}

/**
 * An auction kept current in the browser: pushed by `auctionUpdate` in its room, re-synced by
 * the 1 Hz `timerUpdate`, polled from /api while the socket is down. The countdown runs from
 * the server's time left, measured with the monotonic clock, never from the wall clock.
 */
const withBids = (view: AuctionView & { bids?: LiveBid[] }): LiveView => ({
  ...view,
  bids: view.bids ?? [],
})

/**
 * `initial` is the loader's object: it keeps its identity until the next loader result, which
 * is what resets the state (a fresh object on every render would reset it on every render).
 */
export function useLiveAuction(
  initial: AuctionView & { bids?: LiveBid[]; record?: RecordHead | null },
) {
  const { socket, connected } = useSocket()
  const revalidator = useRevalidator()
  const [auction, setAuction] = useState<LiveView>(() => withBids(initial))
  /** The stage and bids shown, set with each state applied (before React renders it). */
  const shown = useRef<Stage>(initial)
  const deadline = useRef<number | null>(deadlineOf(initial.timeLeft))
  const [msLeft, setMsLeft] = useState<number | null>(initial.timeLeft)
  /** Sockets following this auction now (sent by the server after joins and leaves). */
  const [viewers, setViewers] = useState<number | null>(null)
  /** The record's newest head heard of (docs/fair-play.md). */
  const [record, setRecord] = useState<RecordHead | null>(initial.record ?? null)

  // A new loader result (navigation, revalidation) wins over what we had, unless an update
  // newer than its read came meanwhile: then that update's live fields stay.
  useEffect(() => {
    const stale = isOlder(initial, shown.current)
    setAuction((current) =>
      stale
        ? { ...withBids(initial), ...liveFieldsOf(current), bids: current.bids }
        : withBids(initial),
    )
    if (stale) return
    shown.current = initial
    deadline.current = deadlineOf(initial.timeLeft)
    setMsLeft(initial.timeLeft)
    setRecord(initial.record ?? null)
  }, [initial])

  const apply = (update: LiveUpdate) => {
    if (isOlder(update.auction, shown.current)) return
    shown.current = update.auction
    setAuction((current) => {
      if (current.status !== 'finished' && update.auction.status === 'finished')
        revalidator.revalidate()
      return { ...applyLiveUpdate(current, update), bids: update.bids ?? current.bids }
    })
    deadline.current = deadlineOf(update.auction.timeLeft)
    setMsLeft(update.auction.timeLeft)
    const head = update.record
    // Updates may arrive out of order: a head never goes back.
    if (head) setRecord((current) => (current && current.seq > head.seq ? current : head))
  }
  const applyRef = useRef(apply)
  applyRef.current = apply

  useEffect(() => {
    if (!socket) return
    const id = initial.id
    // The auction's own page: its person gets no outbid alert while it is open.
    const join = () => socket.emit('joinAuction', id, { page: true })
    const onUpdate = (update: LiveUpdate) => {
      if (update.auction.id === id) applyRef.current(update)
    }
    const onTimers = (timers: Record<string, number>) => {
      const seconds = timers[id]
      if (seconds === undefined || deadline.current === null) return
      deadline.current = resynced(deadline.current, seconds)
    }
    const onViewers = (event: { auctionId: string; count: number }) => {
      if (event.auctionId === id) setViewers(event.count)
    }
    if (socket.connected) join()
    socket.on('connect', join)
    socket.on('auctionUpdate', onUpdate)
    socket.on('timerUpdate', onTimers)
    socket.on('viewers', onViewers)
    return () => {
      socket.emit('leaveAuction', id)
      socket.off('connect', join)
      socket.off('auctionUpdate', onUpdate)
      socket.off('timerUpdate', onTimers)
      socket.off('viewers', onViewers)
    }
  }, [socket, initial.id])

  // The socket is down: poll the JSON API every second instead.
  useEffect(() => {
    if (connected || !socket || auction.status === 'finished') return
    const timer = setInterval(() => {
      Promise.all([
        fetch(`/api/auctions/slug/${encodeURIComponent(initial.slug)}`).then((r) =>
          r.ok ? r.json() : null,
        ),
        fetch(`/api/auctions/${encodeURIComponent(initial.id)}/bids`).then((r) =>
          r.ok ? r.json() : null,
        ),
      ])
        .then(([a, bids]: [LiveAuction | null, LiveBid[] | null]) => {
          if (a) applyRef.current({ auction: a, bids: bids ?? undefined })
        })
        .catch(() => {})
    }, 1000)
    return () => clearInterval(timer)
  }, [connected, socket, auction.status, initial.id, initial.slug])

  // The countdown itself.
  useEffect(() => {
    const tick = setInterval(() => {
      setMsLeft(
        deadline.current === null ? null : Math.max(0, deadline.current - performance.now()),
      )
    }, 250)
    return () => clearInterval(tick)
  }, [])

  return { auction, msLeft, connected, viewers: connected ? viewers : null, record }
}

const liveFieldsOf = (a: LiveFields): LiveFields => ({
  status: a.status,
  currentPrice: a.currentPrice,
  totalBids: a.totalBids,
  prebidsCount: a.prebidsCount,
  lastBidder: a.lastBidder,
  lastBidderIsBot: a.lastBidderIsBot,
  lastBidderId: a.lastBidderId,
})

type LiveCard = LiveFields & { id: string; timeLeft: number | null }

/**
 * A list of auctions kept current in the browser (the cards of a page): one listener and one
 * countdown clock for the whole list, however many cards it has. The same updates as
 * `useLiveAuction`; while the socket is down, the JSON API's auction list is polled once a
 * second. `msLeft(auction)` is the time left on a live auction's timer now.
 */
export function useLiveAuctions<T extends LiveCard>(initial: readonly T[]) {
  const { socket, connected } = useSocket()
  const revalidator = useRevalidator()
  // Updates since the loader's list; a new list (navigation, revalidation) starts afresh.
  const [changed, setChanged] = useState<{ of: readonly T[]; byId: ReadonlyMap<string, T> }>({
    of: initial,
    byId: new Map(),
  })
  const byId = changed.of === initial ? changed.byId : null
  const auctions = byId && byId.size > 0 ? initial.map((a) => byId.get(a.id) ?? a) : initial
  const deadlines = useRef(new Map<string, number | null>())
  /** Each card's stage and bids as last applied (see `isOlder`). */
  const stages = useRef(new Map<string, Stage>())
  /** The monotonic clock at the last tick; null until the first one (the server's render). */
  const [now, setNow] = useState<number | null>(null)
  const ids = initial.map((a) => a.id).join(',')
  const anyLive = auctions.some((a) => a.status === 'live')

  useEffect(() => {
    deadlines.current = new Map(initial.map((a) => [a.id, deadlineOf(a.timeLeft)]))
    stages.current = new Map(initial.map((a) => [a.id, a]))
  }, [initial])

  const apply = (update: LiveUpdate) => {
    const id = update.auction.id
    const stage = stages.current.get(id)
    if (!stage || isOlder(update.auction, stage)) return
    stages.current.set(id, update.auction)
    deadlines.current.set(id, deadlineOf(update.auction.timeLeft))
    // The countdown is drawn against the clock of now, not of the last tick (up to 250 ms old).
    setNow(performance.now())
    setChanged((current) => {
      const base = current.of === initial ? current.byId : new Map<string, T>()
      const before = base.get(id) ?? initial.find((a) => a.id === id)
      if (!before) return current
      if (before.status !== 'finished' && update.auction.status === 'finished')
        revalidator.revalidate()
      const next = new Map(base)
      next.set(id, { ...applyLiveUpdate(before, update), timeLeft: update.auction.timeLeft })
      return { of: initial, byId: next }
    })
  }
  const applyRef = useRef(apply)
  applyRef.current = apply

  useEffect(() => {
    if (!socket || ids === '') return
    const list = ids.split(',')
    const join = () => {
      for (const id of list) socket.emit('joinAuction', id)
    }
    const onUpdate = (update: LiveUpdate) => applyRef.current(update)
    const onTimers = (timers: Record<string, number>) => {
      for (const [id, seconds] of Object.entries(timers)) {
        const deadline = deadlines.current.get(id)
        if (deadline === undefined || deadline === null) continue
        deadlines.current.set(id, resynced(deadline, seconds))
      }
    }
    if (socket.connected) join()
    socket.on('connect', join)
    socket.on('auctionUpdate', onUpdate)
    socket.on('timerUpdate', onTimers)
    return () => {
      for (const id of list) socket.emit('leaveAuction', id)
      socket.off('connect', join)
      socket.off('auctionUpdate', onUpdate)
      socket.off('timerUpdate', onTimers)
    }
  }, [socket, ids])

  // The socket is down: poll the JSON API's list every second instead.
  useEffect(() => {
    if (connected || !socket || !anyLive) return
    const timer = setInterval(() => {
      fetch('/api/auctions')
        .then((r) => (r.ok ? r.json() : null))
        .then((groups: Record<string, LiveUpdate['auction'][]> | null) => {
          for (const auction of Object.values(groups ?? {}).flat()) applyRef.current({ auction })
        })
        .catch(() => {})
    }, 1000)
    return () => clearInterval(timer)
  }, [connected, socket, anyLive])

  // One countdown clock for every card.
  useEffect(() => {
    if (!anyLive) return
    const tick = setInterval(() => setNow(performance.now()), 250)
    return () => clearInterval(tick)
  }, [anyLive])

  const msLeft = (auction: T): number | null => {
    const deadline = deadlines.current.get(auction.id)
    if (now === null || deadline === undefined) return auction.timeLeft
    return deadline === null ? null : Math.max(0, deadline - now)
  }
  return { auctions, msLeft }
}
