import net from 'node:net'

// Postgres (or any TCP service) as an app sees it in the fault tests: through a proxy that can
// be cut (new connections refused, open ones destroyed) and restored on the same port.

/** A TCP proxy that can be cut and restored on the same port. */
export class TcpProxy {
  private server: net.Server | undefined
  private readonly sockets = new Set<net.Socket>()

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  get isUp() {
    return this.server !== undefined
  }

  listen() {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target)
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    return new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject)
      this.server!.listen(this.port, '127.0.0.1', () => resolve())
    })
  }

  async cut() {
    const server = this.server
    this.server = undefined
    const closed = new Promise((resolve) => server?.close(resolve))
    for (const socket of this.sockets) socket.destroy()
    await closed
  }
}

/** The database URL `url` reached through a proxy on `port` of this machine. */
export function throughProxy(url: string, port: number) {
  const via = new URL(url)
  via.hostname = '127.0.0.1'
  via.port = String(port)
  return via.toString()
}

/** A proxy to the database at `url`, listening. */
export async function proxyTo(url: string, port: number) {
  const direct = new URL(url)
  const proxy = new TcpProxy(port, { host: direct.hostname, port: Number(direct.port || 5432) })
  await proxy.listen()
  return proxy
}
