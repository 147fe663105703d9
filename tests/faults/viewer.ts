import { io, type Socket } from 'socket.io-client'
import { waitFor } from '../setup/stack.ts'

/**
 * A Socket.IO client watching auctions over one transport, as a page does: it joins their rooms
 * on every (re)connection and keeps the time of every `auctionUpdate` and of every outage.
 */
export class Viewer {
  readonly updates: number[] = []
  readonly outages: { from: number; to?: number }[] = []
  readonly socket: Socket

  constructor(
    url: string,
    readonly transport: 'websocket' | 'polling',
    auctions: string[],
  ) {
    this.socket = io(url, {
      transports: [transport],
      reconnectionDelay: 200,
      reconnectionDelayMax: 1_000,
      timeout: 5_000,
    })
    this.socket.on('connect', () => {
      const outage = this.outages.at(-1)
      if (outage && outage.to === undefined) outage.to = Date.now()
      for (const id of auctions) this.socket.emit('joinAuction', id)
    })
    // A connection that closes before its Socket.IO handshake ends says so again.
    this.socket.on('disconnect', () => {
      const outage = this.outages.at(-1)
      if (!outage || outage.to !== undefined) this.outages.push({ from: Date.now() })
    })
    this.socket.on('auctionUpdate', () => this.updates.push(Date.now()))
  }

  connected() {
    return waitFor(
      `the ${this.transport} viewer to connect`,
      async () => this.socket.connected,
      10_000,
      50,
    )
  }

  updatesSince(at: number) {
    return this.updates.filter((t) => t >= at).length
  }

  /** The outages, as "N ms" each (still open: "open"). */
  describeOutages() {
    return this.outages.map((o) => (o.to ? `${o.to - o.from} ms` : 'open')).join(', ') || 'none'
  }

  close() {
    this.socket.close()
  }
}
