// A tiny round-robin TCP proxy: each new connection goes to the next target, bytes pass through
// untouched (so the Host header, and with it the origin a server sees, is the proxy's own).
// `tap` sees what each client sends, e.g. to count a database's statements on the wire.
import net from 'node:net'

export type Proxy = { url: string; close: () => Promise<void> }

export type ProxyOptions = {
  /** Called with every chunk a client sends; `connection` numbers the client connections. */
  tap?: (chunk: Buffer, connection: number) => void
  /** Called when a client connection closes. */
  closed?: (connection: number) => void
}

/** `targets` are URLs (`http://127.0.0.1:3000`, `postgresql://host:5432/db`): host and port. */
export async function startProxy(targets: string[], options: ProxyOptions = {}): Promise<Proxy> {
  if (targets.length === 0) throw new Error('startProxy needs at least one target')
  const upstreams = targets.map((target) => {
    const url = new URL(target)
    return { host: url.hostname, port: Number(url.port) }
  })
  const sockets = new Set<net.Socket>()
  let next = 0
  let connections = 0
  const server = net.createServer((client) => {
    const connection = connections++
    const upstream = net.connect(upstreams[next++ % upstreams.length]!)
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true)
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
      // Either side failing ends both; the other side sees a closed connection.
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.once('close', () => {
      upstream.destroy()
      options.closed?.(connection)
    })
    upstream.once('close', () => client.destroy())
    if (options.tap) {
      const tap = options.tap
      client.on('data', (chunk: Buffer) => tap(chunk, connection))
    }
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
