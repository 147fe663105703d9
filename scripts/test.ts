// `npm test`: the whole suite on a fresh machine. Local Postgres/Redis when DATABASE_URL /
// REDIS_URL are not set, Debian's Chromium and nginx when missing (as root), then lint, types, unit and
// integration tests, a production build, and the browser and fault tests against it; then the
// container image, built and run with podman where the host allows it (scripts/test-image.ts).
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { ensureServices, ServiceError } from './services.ts'
import { failureText, runOrFail, StepFailed } from './run.ts'
import { unsupportedReason } from './image/podman.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Debian's package that brings `binary`, installed as root when missing. */
function ensurePackage(binary: string, pkg: string, hint: string) {
  if (existsSync(binary)) return
  if (process.getuid?.() !== 0) {
    throw new StepFailed(
      `${pkg} is not installed at ${binary}. Install Debian's package (sudo apt-get install -y ${pkg})${hint}.`,
      1,
    )
  }
  process.stdout.write(`[test] installing Debian package ${pkg}\n`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
      stdio: 'inherit',
      env,
    }).status
  if (install() !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
    if (install() !== 0) throw new StepFailed(`apt-get install ${pkg} failed`, 1)
  }
}

/** Each step's name and seconds, printed at the end whether the suite passed or not. */
const times: Array<[string, number]> = []
let current: { name: string; started: number } | null = null

function step(name: string) {
  endStep()
  current = { name, started: Date.now() }
  process.stdout.write(`\n[test] ${name}\n`)
}

function endStep() {
  if (current) times.push([current.name, (Date.now() - current.started) / 1000])
  current = null
}

function printTimes() {
  endStep()
  const total = times.reduce((sum, [, seconds]) => sum + seconds, 0)
  process.stdout.write('\n[test] times:\n')
  for (const [name, seconds] of times)
    process.stdout.write(`[test]   ${seconds.toFixed(0).padStart(5)} s  ${name}\n`)
  process.stdout.write(`[test]   ${total.toFixed(0).padStart(5)} s  in all\n`)
}

async function main() {
  step('packages and services (Chromium, nginx, Postgres, Redis)')
  ensurePackage(CHROMIUM, 'chromium', ' or set CHROMIUM_PATH')
  // The fault tests put nginx (deploy/nginx) in front of two instances.
  ensurePackage('/usr/sbin/nginx', 'nginx', '')
  const services = await ensureServices()
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void services.stop().finally(() => process.exit(130))
    })
  }
  const env = { ...process.env, DATABASE_URL: services.DATABASE_URL, REDIS_URL: services.REDIS_URL }
  try {
    step('prisma generate')
    await runOrFail('prisma', ['generate'], { env })
    // Each is one process on one core: side by side they take the time of the longer.
    step('lint and typecheck')
    const checks = await Promise.allSettled([
      runOrFail('npm', ['run', 'lint'], { env }),
      runOrFail('npm', ['run', 'typecheck'], { env }),
    ])
    for (const check of checks) if (check.status === 'rejected') throw check.reason
    step('unit and integration tests')
    await runOrFail('vitest', ['run'], { env })
    step('production build')
    await runOrFail('npm', ['run', 'build'], { env })
    // The files that use only their own data run several at a time, then the ones that must
    // be alone (vitest.e2e.config.ts).
    step('browser tests (Chromium), several files at a time')
    await runOrFail('vitest', ['run', '--config', 'vitest.e2e.config.ts'], {
      env: { ...env, E2E_GROUP: 'parallel' },
    })
    step('browser tests (Chromium), the files that run alone')
    await runOrFail('vitest', ['run', '--config', 'vitest.e2e.config.ts'], {
      env: { ...env, E2E_GROUP: 'alone' },
    })
    step('fault tests (killed web process, Redis restart, Postgres away, behind nginx)')
    await runOrFail('vitest', ['run', '--config', 'vitest.faults.config.ts'], { env })
    const noImage = unsupportedReason()
    if (noImage) {
      step(`container image: SKIPPED, ${noImage}; run npm run test:image where it can`)
    } else {
      step('container image (podman: build, embedded and external services, restart)')
      await runOrFail('tsx', ['scripts/test-image.ts'], { env })
    }
    printTimes()
    process.stdout.write('\n[test] all passed\n')
  } catch (error) {
    printTimes()
    throw error
  } finally {
    await services.stop()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\n[test] failed: ${failureText(error, [StepFailed, ServiceError])}\n`)
  process.exit(error instanceof StepFailed ? error.code || 1 : 1)
})
