// npm run test:image: builds the Dockerfile with podman and runs the image as ops would
// (docs/operations.md); with `--prepare`, only what is made once per machine: the packages, the
// base and the dependencies' stage. Root on Debian: podman, runc and debootstrap are installed when missing,
// and without a container registry the base is made here (scripts/image/base.ts). Two runs:
// one container with the embedded Postgres and Redis on a volume, then Postgres and Redis from
// the environment; each stopped with SIGTERM and started again on the same data. The embedded
// install is also backed up while bids are placed, restored into a new volume and started on it
// (scripts/image/backup.ts). Prints the image's size and start times. Storage stays in the
// machine's cache folder (scripts/image/podman.ts) for the next run; the containers, volumes,
// backup file, database and Redis keys it made are removed.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { backupWhileBidding, checkRestored, restoreInto } from './image/backup.ts'
import { baseImage } from './image/base.ts'
import { firstVisit, secondVisit, stopGracefully, waitReady, type Site } from './image/checks.ts'
import { checkWritten, externalServices } from './image/external.ts'
import {
  ensurePackages,
  IMAGE,
  ImageTestError,
  podman,
  say,
  unsupportedReason,
} from './image/podman.ts'
import { ensureServices, ServiceError } from './services.ts'
import { failureText } from './run.ts'

const made = { containers: [] as string[], volumes: [] as string[], folders: [] as string[] }
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

const buildArgs = (base: string) => [
  'build',
  '--isolation',
  'chroot',
  '--layers',
  '--build-arg',
  `NODE_IMAGE=${base}`,
]

/**
 * The dependencies' stage (the slow `npm install`), with a name of its own, so that the prune
 * below keeps it while the layers of earlier sources go; cached until package.json or
 * package-lock.json change.
 */
async function buildDependencies(base: string) {
  const started = Date.now()
  await podman([...buildArgs(base), '--target', 'deps', '-t', `${IMAGE}-deps`, '.'])
  say(`dependencies' stage ready in ${seconds(started)}`)
}

async function build(base: string) {
  const started = Date.now()
  const old = await podman(['image', 'inspect', '--format', '{{.Id}}', IMAGE]).catch(() => '')
  say(`building ${IMAGE} on ${base}`)
  await buildDependencies(base)
  await podman([...buildArgs(base), '-t', IMAGE, '.'])
  const id = await podman(['image', 'inspect', '--format', '{{.Id}}', IMAGE])
  // The previous build's image, and unnamed layers of builds more than an hour old.
  if (old && old !== id) await podman(['rmi', old]).catch(() => {})
  await podman(['image', 'prune', '-f', '--filter', 'until=1h']).catch(() => {})
  const size = Number(await podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]))
  say(`built in ${seconds(started)}; image size ${(size / 1e6).toFixed(0)} MB`)
}

const secrets = {
  SESSION_SECRET: randomBytes(24).toString('hex'),
  PAYMENT_SANDBOX_SECRET: randomBytes(16).toString('hex'),
  PAYMENT_SANDBOX_DEMO: '1',
}

/** Starts a container and waits until it is ready; returns the site and how long it took. */
async function start(name: string, port: number, options: string[], env: Record<string, string>) {
  const started = Date.now()
  const envArgs = Object.entries({
    ...secrets,
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    ...env,
  }).flatMap(([key, value]) => ['-e', `${key}=${value}`])
  made.containers.push(name)
  await podman(['run', '-d', '--init', '--name', name, ...options, ...envArgs, IMAGE])
  const site: Site = { base: `http://127.0.0.1:${port}`, container: name }
  await waitReady(site, 120_000)
  return { site, took: seconds(started) }
}

async function restartCycle(
  label: string,
  port: number,
  options: string[],
  env: Record<string, string>,
  hooks: {
    /** After the first container stopped (external services: what Postgres holds). */
    afterStop?: (username: string) => Promise<void>
    /** While the second container runs, after its checks. */
    beforeStop?: (site: Site) => Promise<void>
  } = {},
) {
  const name = `pa-image-${label}-${process.pid}`
  const first = await start(`${name}-1`, port, options, env)
  say(`${label}: ready ${first.took} after podman run (first start)`)
  const user = await firstVisit(first.site)
  await stopGracefully(first.site)
  await hooks.afterStop?.(user.username)
  const second = await start(`${name}-2`, port, options, env)
  say(`${label}: ready ${second.took} after podman run (restart on the same data)`)
  await secondVisit(second.site, user)
  await hooks.beforeStop?.(second.site)
  await stopGracefully(second.site)
  return { first: first.took, second: second.took }
}

async function newVolume(name: string) {
  made.volumes.push(name)
  await podman(['volume', 'create', name])
  return name
}

/** The running install backed up while bids are placed, restored into a new volume and started. */
async function backupRound(site: Site) {
  const folder = mkdtempSync(path.join(tmpdir(), 'pa-image-backup-'))
  made.folders.push(folder)
  const taken = await backupWhileBidding(site, path.join(folder, 'pa.backup'))
  const volume = await newVolume(`pa-image-restored-${process.pid}`)
  await restoreInto(volume, taken)
  const port = await freePort()
  const options = ['-p', `127.0.0.1:${port}:3000`, '-v', `${volume}:/app/.data`]
  const restored = await start(`pa-image-restored-${process.pid}`, port, options, {
    EMBEDDED_SERVICES: '1',
  })
  say(`restored: ready ${restored.took} after podman run`)
  await checkRestored(restored.site, taken)
  await stopGracefully(restored.site)
}

async function embeddedRun() {
  const volume = await newVolume(`pa-image-data-${process.pid}`)
  const port = await freePort()
  return restartCycle(
    'embedded',
    port,
    ['-p', `127.0.0.1:${port}:3000`, '-v', `${volume}:/app/.data`],
    { EMBEDDED_SERVICES: '1' },
    { beforeStop: backupRound },
  )
}

async function externalRun() {
  const services = await ensureServices()
  const external = await externalServices(services.DATABASE_URL, services.REDIS_URL)
  try {
    const port = await freePort()
    const env = {
      DATABASE_URL: external.DATABASE_URL,
      REDIS_URL: external.REDIS_URL,
      REDIS_PREFIX: external.REDIS_PREFIX,
      HOST: '127.0.0.1',
      PORT: String(port),
    }
    return await restartCycle('external', port, ['--network', 'host'], env, {
      afterStop: (username) => checkWritten(external, username),
    })
  } finally {
    await external.remove()
    await services.stop()
  }
}

async function cleanUp() {
  // -v: also the anonymous volume of /app/.data in the containers that run without one of ours.
  for (const name of made.containers)
    await podman(['rm', '-f', '-v', '--time', '0', name]).catch(() => {})
  for (const name of made.volumes) await podman(['volume', 'rm', '-f', name]).catch(() => {})
  for (const folder of made.folders) rmSync(folder, { recursive: true, force: true })
}

async function main() {
  const reason = unsupportedReason()
  if (reason) throw new ImageTestError(`the image test cannot run on this host: ${reason}`)
  const started = Date.now()
  ensurePackages()
  const base = await baseImage()
  if (process.argv.includes('--prepare')) {
    // What is made once per machine (and again when the dependencies change): `npm test` runs
    // it before the browser tests, which it would starve of CPU and disk.
    await buildDependencies(base)
    say(`prepared in ${seconds(started)}`)
    return
  }
  await build(base)
  try {
    const embedded = await embeddedRun()
    const external = await externalRun()
    say(
      `start to ready: embedded ${embedded.first} (first, with initdb), ${embedded.second} (restart); ` +
        `external ${external.first}, ${external.second}`,
    )
  } finally {
    await cleanUp()
  }
  say(`passed in ${seconds(started)}`)
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)))
}

main().catch(async (error: unknown) => {
  await cleanUp()
  process.stderr.write(`[image] failed: ${failureText(error, [ImageTestError, ServiceError])}\n`)
  process.exit(1)
})
