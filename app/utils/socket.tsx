import { useRevalidator } from '@remix-run/react'
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react'
import type { Socket } from 'socket.io-client'
import {
  BalanceNewsContext,
  ReportBalanceContext,
  useOptionalUser,
  type BalanceNews,
} from '~/utils/hooks.ts'

/** A bid balance as the server sends it: a whole number of bids. */
const isBalance = (value: unknown): value is number => Number.isInteger(value)

type SocketState = { socket: Socket | null; connected: boolean }
const SocketContext = createContext<SocketState>({ socket: null, connected: false })

/**
 * One Socket.IO connection per tab, shared through context (docs/architecture.md#real-time): websocket
 * first, then long polling; reconnects forever with a 1-5 s backoff; 20 s connect timeout.
 * Created only in the browser, after hydration, which is when its library is fetched.
 */
export function SocketProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SocketState>({ socket: null, connected: false })
  const user = useOptionalUser()
  const revalidator = useRevalidator()

  useEffect(() => {
    // The client library is fetched here, once the page is hydrated, beside the page's own
    // JavaScript rather than before it: the page is usable without it (docs/performance.md).
    let socket: Socket | undefined
    let closed = false
    import('socket.io-client').then(
      ({ io }) => {
        if (closed) return
        const opened = io({
          transports: ['websocket', 'polling'],
          reconnection: true,
          reconnectionAttempts: Infinity,
          reconnectionDelay: 1000,
          reconnectionDelayMax: 5000,
          timeout: 20_000,
        })
        socket = opened
        setState({ socket: opened, connected: opened.connected })
        const onConnect = () => setState({ socket: opened, connected: true })
        const onDisconnect = () => setState({ socket: opened, connected: false })
        // The server closes a socket whose session ended (a logout here or elsewhere); Socket.IO
        // does not reconnect by itself then. The page connects again, as whoever its cookie names.
        const onClosedByServer = (reason: Socket.DisconnectReason) => {
          if (reason === 'io server disconnect') opened.connect()
        }
        opened.on('connect', onConnect)
        opened.on('disconnect', onDisconnect)
        opened.on('disconnect', onClosedByServer)
        opened.on('connect_error', onDisconnect)
      },
      // Not fetched (offline, a new deployment): the page stays as it is, shown as not live.
      () => setState({ socket: null, connected: false }),
    )
    return () => {
      closed = true
      socket?.close()
    }
  }, [])

  // A change to my own bid balance (a bid, a top-up, an admin edit) shows in the header: the
  // event carries the new balance; without it, the user is read again. A bid's own answer
  // carries it too, for when the socket is away.
  const [balanceNews, setBalanceNews] = useState<BalanceNews | null>(null)
  const reportBalance = useCallback(
    (bidBalance: number) => {
      if (user && isBalance(bidBalance)) setBalanceNews({ of: user, bidBalance })
    },
    [user],
  )
  useEffect(() => {
    const socket = state.socket
    if (!socket || !user) return
    const onBalance = (payload: { userId?: string; bidBalance?: unknown }) => {
      if (payload.userId !== user.id) return
      if (isBalance(payload.bidBalance)) reportBalance(payload.bidBalance)
      else if (revalidator.state === 'idle') revalidator.revalidate()
    }
    socket.on('bidBalanceUpdate', onBalance)
    return () => {
      socket.off('bidBalanceUpdate', onBalance)
    }
  }, [state.socket, user, revalidator, reportBalance])

  return (
    <SocketContext.Provider value={state}>
      <ReportBalanceContext.Provider value={reportBalance}>
        <BalanceNewsContext.Provider value={balanceNews}>{children}</BalanceNewsContext.Provider>
      </ReportBalanceContext.Provider>
    </SocketContext.Provider>
  )
}

export function useSocket() {
  return useContext(SocketContext)
}
