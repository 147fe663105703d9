import { useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import type { LiveAuction, LiveBid } from '~/models/live-auction.ts'
import type { AuctionView } from '~/models/auction.server.ts'
import { useSocket } from '~/utils/socket.tsx'

const toMinor = (som: number) => Math.round(som * 100)

export type LiveView = AuctionView & { bids: LiveBid[] }

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
export function useLiveAuction(initial: AuctionView & { bids?: LiveBid[] }) {
  const { socket, connected } = useSocket()
  const revalidator = useRevalidator()
  const [auction, setAuction] = useState<LiveView>(() => withBids(initial))
  const deadline = useRef<number | null>(
    initial.timeLeft === null ? null : performance.now() + initial.timeLeft,
  )
  const [msLeft, setMsLeft] = useState<number | null>(initial.timeLeft)
  /** Sockets following this auction now (sent by the server after joins and leaves). */
  const [viewers, setViewers] = useState<number | null>(null)

  // A new loader result (navigation, revalidation) wins over what we had.
  useEffect(() => {
    setAuction(withBids(initial))
    deadline.current = initial.timeLeft === null ? null : performance.now() + initial.timeLeft
    setMsLeft(initial.timeLeft)
  }, [initial])

  const apply = (update: { auction: LiveAuction; bids?: LiveBid[] }) => {
    const a = update.auction
    setAuction((current) => {
      if (current.status !== 'finished' && a.status === 'finished') revalidator.revalidate()
      return {
        ...current,
        status: a.status,
        currentPrice: toMinor(a.currentPrice),
        totalBids: a.totalBids,
        prebidsCount: a.prebidsCount,
        lastBidder: a.lastBidder,
        lastBidderIsBot: a.lastBidderIsBot,
        lastBidderId:
          update.bids?.[0]?.user?.id ?? (a.lastBidderIsBot ? null : current.lastBidderId),
        bids: update.bids ?? current.bids,
      }
    })
    deadline.current = a.timeLeft === null ? null : performance.now() + a.timeLeft
    setMsLeft(a.timeLeft)
  }
  const applyRef = useRef(apply)
  applyRef.current = apply

  useEffect(() => {
    if (!socket) return
    const id = initial.id
    const join = () => socket.emit('joinAuction', id)
    const onUpdate = (update: { auction: LiveAuction; bids: LiveBid[] }) => {
      if (update.auction.id === id) applyRef.current(update)
    }
    const onTimers = ({ timers }: { timers: Record<string, number> }) => {
      const seconds = timers[id]
      if (seconds === undefined || deadline.current === null) return
      const server = performance.now() + seconds * 1000
      if (Math.abs(server - deadline.current) > 1000) deadline.current = server
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

  return { auction, msLeft, connected, viewers: connected ? viewers : null }
}
