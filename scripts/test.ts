// `npm test`: the whole suite on a fresh machine. Local Postgres/Redis when DATABASE_URL /
// REDIS_URL are not set, Debian's Chromium when missing (as root), then lint, types, unit and
// integration tests, a production build, and the browser and fault tests against it.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { ensureServices, ServiceError } from './services.ts'
import { runOrFail, StepFailed } from './run.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

function ensureChromium() {
  if (existsSync(CHROMIUM)) return
  if (process.getuid?.() !== 0) {
    throw new StepFailed(
      `Chromium is not installed at ${CHROMIUM}. Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
      1,
    )
  }
  process.stdout.write('[test] installing Debian package chromium for the browser tests\n')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env,
    }).status
  if (install() !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
    if (install() !== 0) throw new StepFailed('apt-get install chromium failed', 1)
  }
}

async function main() {
  const step = (name: string) => process.stdout.write(`\n[test] ${name}\n`)
  ensureChromium()
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
    step('lint')
    await runOrFail('npm', ['run', 'lint'], { env })
    step('typecheck')
    await runOrFail('npm', ['run', 'typecheck'], { env })
    step('unit and integration tests')
    await runOrFail('vitest', ['run'], { env })
    step('production build')
    await runOrFail('npm', ['run', 'build'], { env })
    step('browser tests (Chromium)')
    await runOrFail('vitest', ['run', '--config', 'vitest.e2e.config.ts'], { env })
    step('fault tests (killed web process, Redis restart, Postgres away)')
    await runOrFail('vitest', ['run', '--config', 'vitest.faults.config.ts'], { env })
    process.stdout.write('\n[test] all passed\n')
  } finally {
    await services.stop()
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof StepFailed || error instanceof ServiceError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error)
  process.stderr.write(`\n[test] failed: ${message}\n`)
  process.exit(error instanceof StepFailed ? error.code || 1 : 1)
})
