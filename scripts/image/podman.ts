// Podman for the image test (scripts/test-image.ts): whether this host can run it, Debian's
// packages installed when missing, and podman with storage, runtime and limits of its own under
// one folder of the machine's (IMAGE_TEST_CACHE, /var/cache/penny-auction/image by default), so
// that every later run, from any checkout of the project, reuses the base and the build layers.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { finished } from 'node:stream/promises'
import { root } from '../run.ts'

export const cacheDir = path.resolve(
  process.env.IMAGE_TEST_CACHE ?? '/var/cache/penny-auction/image',
)
const PACKAGES = ['podman', 'runc', 'debootstrap', 'catatonit', 'slirp4netns'] as const

/** The image the test builds; its dependencies' stage is kept as `${IMAGE}-deps`. */
export const IMAGE = 'localhost/penny-auction:test'

export class ImageTestError extends Error {}

export function say(message: string) {
  process.stdout.write(`[image] ${message}\n`)
}

/** Why this host cannot run the image test, or null when it can (root on Debian with apt). */
export function unsupportedReason(): string | null {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`
  if (process.getuid?.() !== 0) return 'not root (podman, runc and debootstrap need root here)'
  if (!existsSync('/etc/debian_version'))
    return 'not Debian (the base image is made by debootstrap)'
  if (!existsSync('/usr/bin/apt-get')) return 'no apt-get'
  return null
}

/** Which of `packages` Debian's package manager does not have installed. */
export function missingPackages(packages: readonly string[] = PACKAGES): string[] {
  return packages.filter(
    (pkg) =>
      spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg]).stdout?.toString() !==
      'install ok installed',
  )
}

/**
 * podman, runc, debootstrap, catatonit (for --init) and slirp4netns (the containers' network)
 * from Debian's packages when missing.
 */
export function ensurePackages() {
  const missing = missingPackages()
  if (missing.length === 0) return
  say(`installing Debian packages ${missing.join(', ')}`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env,
    }).status
  if (install() !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
    if (install() !== 0) throw new ImageTestError(`apt-get install ${missing.join(' ')} failed`)
  }
}

/** The host's hard limit of a resource (/proc/self/limits), capped: containers may not exceed it. */
function hardLimit(name: string, cap: number): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(name))
  const value = line?.slice(name.length).trim().split(/\s+/)[1]
  return value && value !== 'unlimited' ? Math.min(Number(value), cap) : cap
}

/**
 * runc, because crun fails on hybrid cgroups; cgroupfs and file events, because the host may
 * have no systemd; ulimits at or below the host's hard ones, because podman's defaults exceed
 * them and the container's start fails in setrlimit. The containers' network is slirp4netns, in
 * the container's own namespace: the default bridge adds a veth interface (with its IPv6
 * link-local address) to the host for each container, and Chromium, running the browser tests
 * beside this test, aborts its requests in flight with ERR_NETWORK_CHANGED whenever the host's
 * addresses change (seen as a dialog that never opened).
 */
function writeContainersConf(): string {
  const file = path.join(cacheDir, 'containers.conf')
  const nofile = hardLimit('Max open files', 65_536)
  const nproc = hardLimit('Max processes', 8_192)
  writeFileSync(
    file,
    [
      '[containers]',
      `default_ulimits=["nofile=${nofile}:${nofile}","nproc=${nproc}:${nproc}"]`,
      'netns="slirp4netns"',
      '[engine]',
      'runtime="runc"',
      'cgroup_manager="cgroupfs"',
      'events_logger="file"',
      '',
    ].join('\n'),
  )
  return file
}

let conf: string | null = null

function podmanArgs(args: string[]) {
  if (!conf) {
    mkdirSync(cacheDir, { recursive: true })
    conf = writeContainersConf()
  }
  const storage = [
    '--root',
    path.join(cacheDir, 'storage'),
    '--runroot',
    path.join(cacheDir, 'run'),
  ]
  return { args: [...storage, ...args], env: { ...process.env, CONTAINERS_CONF: conf } }
}

/**
 * podman with this test's own storage; resolves with its stdout (or, with `output`, once its
 * stdout is all written there), fails with its stderr.
 */
export function podman(
  args: string[],
  options: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream; show?: boolean } = {},
) {
  const call = podmanArgs(args)
  return new Promise<string>((resolve, reject) => {
    const child = spawn('podman', call.args, {
      env: call.env,
      cwd: root,
      stdio: [options.input ? 'pipe' : 'ignore', options.show ? 'inherit' : 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    if (!options.output) child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const written = options.output
      ? finished(child.stdout!.pipe(options.output))
      : Promise.resolve()
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString()
      if (options.show) process.stderr.write(chunk)
    })
    if (options.input && child.stdin) options.input.pipe(child.stdin)
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0
        ? written.then(() => resolve(out.trim()), reject)
        : reject(
            new ImageTestError(
              `podman ${args.slice(0, 2).join(' ')} exited with ${code}: ${err.trim().slice(-2000)}`,
            ),
          ),
    )
  })
}

/** True when podman knows the image (in this test's storage). */
export async function imageExists(name: string) {
  return podman(['image', 'exists', name]).then(
    () => true,
    () => false,
  )
}
