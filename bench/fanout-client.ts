// One process of viewers for `bench/fanout.ts`: opens its share of Socket.IO connections (the
// websocket transport, with the site's Origin, as a browser tab does), each joins one auction
// room, and records for every bid that reaches it how long after the bid's acceptance it came.
// Driven over IPC: `connect`, then `report`, then `close`.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { io, type Socket } from 'socket.io-client'

export type ClientCommand =
  | {
      type: 'connect'
      /** Server (or proxy) URLs; the sockets are spread over them. */
      targets: string[]
      auctions: string[]
      /** Global index of this process's first socket, and how many it opens. */
      first: number
      count: number
      /** Handshakes in flight at once. */
      concurrency: number
    }
  | { type: 'report' }
  | { type: 'close' }

export type Connected = {
  type: 'connected'
  /** Sockets connected and acknowledged in their room (the join's own update arrived). */
  joined: number
  failed: number
  errors: Record<string, number>
  /** Joined sockets per auction id. */
  rooms: Record<string, number>
}

export type ClientReport = {
  type: 'report'
  /** Receipt minus acceptance (ms) for each bid each socket saw. */
  latencies: number[]
  /**
   * For each of those, how long (ms) after the last 1 Hz `timerUpdate` (its receipt) the bid
   * was accepted, or -1 before the first: ties slow deliveries to that broadcast, or not.
   */
  phases: number[]
  /** For the newest bid of each update: `sentAt` minus acceptance, and receipt minus `sentAt`. */
  building: number[]
  transit: number[]
  /** `auctionUpdate` messages of a live auction that carried bids (new or not). */
  bidUpdates: number
  /** Per bid (`auctionId price`): sockets that saw it, and the first and last receipt. */
  bids: Record<string, [count: number, first: number, last: number]>
  disconnects: Record<string, number>
  eventLoopDelay: { p99: number; max: number }
  cpuMs: number
}

type LiveBid = { amount: number; createdAt: string }
type AuctionUpdate = { auction: { id: string; status: string }; bids: LiveBid[]; sentAt: number }

const now = () => performance.timeOrigin + performance.now()
const send = (message: Connected | ClientReport) => process.send?.(message)
const tally = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1
}

const sockets: Socket[] = []
const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()
const cpuAtStart = process.cpuUsage()
const record: Omit<ClientReport, 'type' | 'eventLoopDelay' | 'cpuMs'> = {
  latencies: [],
  phases: [],
  building: [],
  transit: [],
  bidUpdates: 0,
  bids: {},
  disconnects: {},
}

/** One viewer: resolves true once its room has sent it the auction's current state. */
function viewer(target: string, auctionId: string, errors: Record<string, number>) {
  const socket = io(target, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: 30_000,
    extraHeaders: { Origin: new URL(target).origin },
  })
  sockets.push(socket)
  let lastTimer: number | null = null
  socket.on('timerUpdate', () => (lastTimer = now()))
  /** The newest bid price this socket has seen; null until the join's own update. */
  let newest: number | null = null
  let joined: (ok: boolean) => void = () => {}
  const ready = new Promise<boolean>((resolve) => (joined = resolve))
  const giveUp = setTimeout(() => {
    tally(errors, 'no join update within 30 s')
    joined(false)
  }, 30_000)

  socket.on('auctionUpdate', (update: AuctionUpdate) => {
    const at = now()
    if (update.auction.id !== auctionId) return
    const top = update.bids[0]
    if (newest === null) {
      // The join's own update: what was already there is not a delivery.
      clearTimeout(giveUp)
      joined(true)
      newest = top?.amount ?? 0
      return
    }
    if (!top) return
    if (update.auction.status === 'live') record.bidUpdates++
    if (top.amount <= newest) return
    for (const bid of update.bids) {
      if (bid.amount <= newest) break
      const accepted = Date.parse(bid.createdAt)
      record.latencies.push(at - accepted)
      record.phases.push(lastTimer === null ? -1 : (((accepted - lastTimer) % 1000) + 1000) % 1000)
      const key = `${auctionId} ${bid.amount}`
      const seen = record.bids[key]
      if (seen) {
        seen[0]++
        seen[2] = at
      } else record.bids[key] = [1, at, at]
    }
    const acceptedTop = Date.parse(top.createdAt)
    record.building.push(update.sentAt - acceptedTop)
    record.transit.push(at - update.sentAt)
    newest = top.amount
  })
  socket.on('connect', () => socket.emit('joinAuction', auctionId))
  socket.on('connect_error', (error) => {
    clearTimeout(giveUp)
    tally(errors, error.message)
    joined(false)
  })
  socket.on('disconnect', (reason) => tally(record.disconnects, reason))
  return ready
}

async function connect(command: Extract<ClientCommand, { type: 'connect' }>) {
  const errors: Record<string, number> = {}
  const rooms: Record<string, number> = {}
  let joined = 0
  let failed = 0
  let next = 0
  // A server that has stopped taking connections would keep each lane waiting 30 s a viewer:
  // past a few failures the rest are not tried (and count as failed).
  const enough = Math.max(20, Math.ceil(command.count / 50))
  const lane = async () => {
    while (next < command.count && failed < enough) {
      const index = command.first + next++
      const auctionId = command.auctions[index % command.auctions.length]!
      // Consecutive rooms on the same target, so that every room spans every target.
      const target =
        command.targets[Math.floor(index / command.auctions.length) % command.targets.length]!
      if (await viewer(target, auctionId, errors)) {
        joined++
        tally(rooms, auctionId)
      } else failed++
    }
  }
  await Promise.all(Array.from({ length: command.concurrency }, lane))
  if (next < command.count) errors['not tried after failures'] = command.count - next
  send({ type: 'connected', joined, failed: command.count - joined, errors, rooms })
}

process.on('message', (command: ClientCommand) => {
  if (command.type === 'connect') void connect(command)
  else if (command.type === 'report') {
    const cpu = process.cpuUsage(cpuAtStart)
    send({
      type: 'report',
      ...record,
      eventLoopDelay: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
      cpuMs: (cpu.user + cpu.system) / 1000,
    })
  } else {
    for (const socket of sockets) socket.close()
    setTimeout(() => process.exit(0), 200)
  }
})
process.on('disconnect', () => process.exit(0))
