// nginx (Debian's package) in front of app instances, with the repository's configuration
// (deploy/nginx): unprivileged, in a folder of its own, on a free port. The instances' addresses
// and the port replace those of deploy/nginx/compose/*.conf; nginx.conf is used as it is.
import { spawn, type ChildProcess } from 'node:child_process'
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, root, waitFor } from './stack.ts'

const deploy = path.join(root, 'deploy/nginx')

export function nginxBinary() {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => existsSync(file))
  if (!found) {
    throw new Error(
      'nginx is not installed: `npm test` installs it as root, or run `sudo apt-get install -y nginx`.',
    )
  }
  return found
}

export type Nginx = {
  /** For clients in this process. */
  url: string
  /** For Chromium, which keeps the app's Secure cookies on http://localhost only. */
  browserUrl: string
  /** The master's and its workers' process ids. */
  pids: () => number[]
  /** What nginx wrote to its error log (stderr) so far. */
  errors: () => string[]
  /** The access log's lines so far (format `upstreams` of deploy/nginx/nginx.conf). */
  log: () => string[]
  stop: () => Promise<void>
}

/**
 * The compose files' `app-N:3000` become `servers[N-1]` (a server line with no address given is
 * left out), and `listen 80` the given port.
 */
function localConf(servers: string[], port: number) {
  const upstreams = readFileSync(path.join(deploy, 'compose/upstreams.conf'), 'utf8')
  const used = new Set<string>()
  const local = upstreams.replace(/^(\s*server )app-(\d+):3000\b(.*\n)/gm, (_, head, n, tail) => {
    const server = servers[Number(n) - 1]
    if (!server) return ''
    used.add(server)
    return `${String(head)}${server}${String(tail)}`
  })
  if (used.size !== servers.length) throw new Error('deploy/nginx/compose names fewer instances')
  return { upstreams: local, listen: `listen 127.0.0.1:${port};\n` }
}

/** nginx in front of `servers`, on `port` (a free one if unset). */
export async function startNginx(servers: string[], port?: number): Promise<Nginx> {
  const binary = nginxBinary()
  port ??= await freePort()
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'pa-nginx-'))
  // As root nginx's workers run as nobody, who must reach the temp and cache folders.
  chmodSync(prefix, 0o755)
  mkdirSync(path.join(prefix, 'conf.d'))
  copyFileSync(path.join(deploy, 'nginx.conf'), path.join(prefix, 'nginx.conf'))
  const conf = localConf(servers, port)
  writeFileSync(path.join(prefix, 'conf.d/upstreams.conf'), conf.upstreams)
  writeFileSync(path.join(prefix, 'conf.d/listen.conf'), conf.listen)
  const accessLog = path.join(prefix, 'access.log')
  const user = process.getuid?.() === 0 ? 'user nobody nogroup; ' : ''
  const out = openSync(accessLog, 'a')
  const child: ChildProcess = spawn(
    binary,
    [
      '-p',
      `${prefix}/`,
      '-c',
      'nginx.conf',
      '-e',
      'stderr',
      '-g',
      `${user}daemon off; pid nginx.pid;`,
    ],
    // The access log goes to /dev/stdout, which nginx opens anew: a file, not a socket.
    { stdio: ['ignore', out, 'pipe'] },
  )
  closeSync(out)
  const errors: string[] = []
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString()))
  let exited = false
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true
      resolve()
    }),
  )
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (!exited) {
      child.kill('SIGQUIT')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exit
      clearTimeout(timer)
    }
    rmSync(prefix, { recursive: true, force: true })
  }
  try {
    await waitFor(
      'nginx to answer',
      async () => {
        if (exited) throw new Error('nginx exited')
        return (await fetch(`${url}/healthz`)).ok
      },
      10_000,
      100,
    )
  } catch (error) {
    await stop()
    throw new Error(`nginx did not start: ${String(error)}\n${errors.join('\n')}`)
  }
  return {
    url,
    browserUrl: `http://localhost:${port}`,
    pids: () => {
      const master = child.pid!
      const workers = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8')
      return [master, ...workers.split(' ').filter(Boolean).map(Number)]
    },
    errors: () => errors.join('').split('\n').filter(Boolean),
    log: () => readFileSync(accessLog, 'utf8').split('\n'),
    stop,
  }
}
