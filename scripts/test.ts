// `npm test`: the whole suite on a fresh machine. Local Postgres/Redis when DATABASE_URL /
// REDIS_URL are not set, Debian's Chromium and nginx when missing (as root), then lint, types and a
// production build side by side, the unit and integration tests, then the browser tests (two
// groups, each on its own server) beside the fault tests; the container image, built and run with podman where the host allows it
// (scripts/test-image.ts), runs beside all of them.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { ensureServices, ServiceError } from './services.ts'
import { commandFile, failureText, runOrFail, StepFailed } from './run.ts'
import { CPU_GROUP_ENV, CPU_NOTES_ENV, inGroup } from './cpu-time.ts'
import { costs } from './test-costs.ts'
import { unsupportedReason } from './image/podman.ts'
import { deprecationNotes, failureNotes } from './test-report.ts'
import { chromiumPaths } from '../tests/e2e/chromium.ts'

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

/** Deprecation warnings any lane printed: the suite fails on them (scripts/test-report.ts). */
const deprecations = deprecationNotes()

/** Each step's and lane's wall and CPU seconds, printed at the end (scripts/test-costs.ts). */
const cost = costs()

function step(name: string) {
  cost.step(name)
  process.stdout.write(`\n[test] ${name}\n`)
}

type LaneStep = [name: string, command: string, args: string[], env: Record<string, string>]

/** The image test when the host can run it; otherwise a line that says why it is skipped. */
function imageStep(): LaneStep[] {
  const noImage = unsupportedReason()
  if (noImage) {
    process.stdout.write(
      `[test] container image: SKIPPED, ${noImage}; run npm run test:image where it can\n`,
    )
    return []
  }
  const name = 'container image (podman: build, embedded and external services, restart)'
  return [[name, 'tsx', ['scripts/test-image.ts'], {}]]
}

/**
 * A step that failed within a lane: its name, exit code and message (with the failed tests and
 * unhandled errors its output named, scripts/test-report.ts).
 */
type LaneFailure = { step: string; code: number; message: string }

/**
 * Runs `steps` one after another, each line of their output labelled with the lane's name, and
 * records each step's time; a step that fails does not stop the next (none needs another's
 * result). Resolves with the steps that failed.
 */
async function lane(
  label: string,
  steps: LaneStep[],
  env: NodeJS.ProcessEnv,
): Promise<LaneFailure[]> {
  const failures: LaneFailure[] = []
  for (const [name, command, args, extra] of steps) {
    const started = Date.now()
    const notes = failureNotes()
    const group = cost.suite.sub(label)
    process.stdout.write(`\n[test] [${label}] ${name}\n`)
    try {
      const [file, groupArgs] = inGroup(group, commandFile(command), args)
      await runOrFail(file, groupArgs, {
        env: {
          ...env,
          ...extra,
          ...(group.dir ? { [CPU_GROUP_ENV]: group.dir, [CPU_NOTES_ENV]: cost.notes(label) } : {}),
        },
        prefix: `[${label}]`,
        onLine: (line) => {
          notes.onLine(line)
          deprecations.onLine(line)
        },
      })
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error
      process.stdout.write(`[test] [${label}] FAILED: ${error.message}\n`)
      const named = notes.noted.map((line) => `\n[test]   [${label}] ${line}`).join('')
      failures.push({
        step: name,
        code: error.code || 1,
        message: `${name} (${error.message})${named}`,
      })
    } finally {
      cost.laneStep(label, `${label}: ${name}`, started, group)
    }
  }
  return failures
}

/** Waits for every lane; the steps that failed. */
async function settle(lanes: Array<Promise<LaneFailure[]>>): Promise<LaneFailure[]> {
  return (await Promise.all(lanes)).flat()
}

// The browser tests in two groups side by side, each with its own server, database and Redis
// prefix (tests/e2e/global-setup.ts): the files that use only their own data, several at a time,
// and the ones that must be alone on their server, one after another (vitest.e2e.config.ts).
const browserStep: LaneStep = [
  'browser tests (Chromium), several files at a time',
  'vitest',
  ['run', '--config', 'vitest.e2e.config.ts'],
  { E2E_GROUP: 'parallel' },
]
const aloneStep: LaneStep = [
  'browser tests (Chromium), the files that run alone on their server',
  'vitest',
  ['run', '--config', 'vitest.e2e.config.ts'],
  { E2E_GROUP: 'alone' },
]

const faultStep: LaneStep = [
  'fault tests (killed web process, Redis restart, Postgres away, behind nginx)',
  'vitest',
  ['run', '--config', 'vitest.faults.config.ts'],
  {},
]

async function main() {
  step('packages and services (Chromium, nginx, Postgres, Redis)')
  // The browser tests run in the headless shell; a few, and the phone benchmark, in the browser.
  ensurePackage(chromiumPaths.browser, 'chromium', ' or set CHROMIUM_PATH')
  ensurePackage(
    chromiumPaths.shell,
    'chromium-headless-shell',
    ' or set CHROMIUM_HEADLESS_SHELL_PATH',
  )
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
    // Lanes side by side (docs/decisions/066-suite-in-two-lanes.md): the image test from here to
    // the end; lint, types and the build; then the unit tests, with nothing but the image test
    // beside them (some measure the engine's timers); then the browser tests' two groups (decision
    // 068) beside the fault tests, which mostly wait (outages, timers running out). A failure lets the other lanes
    // finish, so one run reports every failure; only a failed build stops what needs it.
    step('lint, types and the build | the container image, side by side')
    const image = lane('image', imageStep(), env)
    const checks = await settle([
      lane('lint', [['lint', 'npm', ['run', 'lint'], {}]], env),
      lane('types', [['typecheck', 'npm', ['run', 'typecheck'], {}]], env),
      lane('build', [['production build', 'npm', ['run', 'build'], {}]], env),
    ])
    step('unit and integration tests | the container image')
    const units = await lane('unit', [['unit and integration tests', 'vitest', ['run'], {}]], env)
    const built = !checks.some((failure) => failure.step === 'production build')
    step(
      `browser tests | browser tests alone | fault tests${built ? '' : ': SKIPPED, the build failed'}`,
    )
    const tests = built
      ? await settle([
          lane('browser', [browserStep], env),
          lane('alone', [aloneStep], env),
          lane('faults', [faultStep], env),
        ])
      : []
    step('the container image, finishing')
    const failures = [...checks, ...units, ...tests, ...(await image)]
    if (deprecations.noted.size > 0) {
      const said = [...deprecations.noted].map((line) => `\n[test]   ${line}`).join('')
      failures.push({
        step: 'deprecations',
        code: 1,
        message: `a framework or Node deprecation warning was printed; answer it as it says${said}`,
      })
    }
    if (failures.length) {
      throw new StepFailed(
        `${failures.length} failed:\n${failures.map((failure) => `- ${failure.message}`).join('\n')}`,
        failures[0]!.code,
      )
    }
    cost.print()
    process.stdout.write('\n[test] all passed\n')
  } catch (error) {
    cost.print()
    throw error
  } finally {
    await services.stop()
    cost.remove()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\n[test] failed: ${failureText(error, [StepFailed, ServiceError])}\n`)
  process.exit(error instanceof StepFailed ? error.code || 1 : 1)
})
