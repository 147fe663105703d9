import { RedisAdapter } from '@socket.io/redis-adapter'
import type { Redis } from 'ioredis'
import type { Namespace } from 'socket.io'

type OnMessage = (pattern: unknown, channel: unknown, message: unknown) => void

/** How often an instance counts the instances sharing its rooms. */
export const PEER_POLL_MS = 1_000

/**
 * The Redis adapter, minus two costs it pays on every broadcast (docs/performance.md):
 *
 * - An instance alone needs no Redis for its rooms, yet the adapter encodes each broadcast
 *   with msgpack and publishes it. Here a broadcast is published only while other instances
 *   follow the same rooms: each instance counts them (subscribers of the adapter's request
 *   channel) every PEER_POLL_MS, and an instance that starts says so at once on a channel of
 *   its own, so that the others publish to it before its first visitor can join a room.
 * - Every instance hears its own publications back and decoded each whole before ignoring it;
 *   its own are recognised by the sender id at the head of the message.
 */
export function roomsAcrossInstances(pub: Redis, sub: Redis, key: string) {
  const helloChannel = `${key}-hello`
  let others = 0
  const adapters = new Set<SharedRooms>()

  class SharedRooms extends RedisAdapter {
    private readonly ownHead: Buffer

    constructor(nsp: Namespace) {
      super(nsp, pub, sub, { key })
      // msgpack of [uid, packet, opts]: a three-item array, then the uid as a short string.
      const uid = (this as unknown as { uid: string }).uid
      this.ownHead = Buffer.concat([Buffer.from([0x93, 0xa0 | uid.length]), Buffer.from(uid)])
      adapters.add(this)
    }

    override broadcast(...[packet, opts]: Parameters<RedisAdapter['broadcast']>) {
      if (others > 0 || opts.flags?.local) return super.broadcast(packet, opts)
      super.broadcast(packet, { ...opts, flags: { ...opts.flags, local: true } })
    }

    isOwn(message: unknown) {
      return (
        Buffer.isBuffer(message) && message.subarray(0, this.ownHead.length).equals(this.ownHead)
      )
    }

    override close() {
      adapters.delete(this)
      return super.close()
    }
  }

  // The adapter's handler of published messages (private in its types; bound to the instance
  // in its constructor, so it is replaced on the prototype).
  const prototype = SharedRooms.prototype as unknown as { onmessage: OnMessage }
  const inherited = prototype.onmessage
  prototype.onmessage = function (this: SharedRooms, pattern, channel, message) {
    if (!this.isOwn(message)) inherited.call(this, pattern, channel, message)
  }

  // A count asked for before a newcomer's hello may answer after it: it then cannot lower
  // the figure the hello raised.
  let hellos = 0
  const count = async () => {
    const [first] = adapters
    if (!first) return
    const before = hellos
    try {
      const counted = Math.max(0, (await first.serverCount()) - 1)
      others = hellos === before ? counted : Math.max(others, counted)
    } catch {
      // Redis out of reach: publish as if others listened, until it answers again.
      others = Math.max(others, 1)
    }
  }
  const onHello = (channel: string, message: string) => {
    if (channel !== helloChannel || message === instanceId) return
    hellos++
    others = Math.max(others, 1)
  }
  const instanceId = `${process.pid}-${Math.random().toString(36).slice(2)}`
  sub.on('message', onHello)
  const ready = sub
    .subscribe(helloChannel)
    .then(() => pub.publish(helloChannel, instanceId))
    .then(count)
  // Said to whoever asks for it (server.ts); never an unhandled rejection while nobody has.
  ready.catch(() => {})
  const poll = setInterval(() => void count(), PEER_POLL_MS)
  poll.unref()

  return {
    /** The adapter class, made per namespace by Socket.IO (`new adapter(nsp)`). */
    adapter: SharedRooms,
    /** Resolves once the other instances were told of this one and counted. */
    ready: () => ready,
    /** How many other instances follow the same rooms, as last counted. */
    others: () => others,
    close() {
      clearInterval(poll)
      sub.off('message', onHello)
    },
  }
}
