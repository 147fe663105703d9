// `npm test`: the whole suite on a fresh machine. It says first how it will spread the work over
// this machine's cores (scripts/test-plan.ts) and what it does for the first time here; then local
// Postgres/Redis when DATABASE_URL / REDIS_URL are not set, Debian's Chromium and nginx when
// missing (as root), lint, types and a production build side by side, the unit and integration
// tests (the fault tests beside them where the cores allow), then the browser tests (two groups,
// each on its own server). The container image, built and run with podman where the host allows
// it (scripts/test-image.ts), runs beside all of them, its one-time work before the browser tests.
// At the end: each step's wall and CPU seconds, and the test files that cost the most.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { ensureServices, ServiceError } from './services.ts'
import { commandFile, failureText, runOrFail, StepFailed } from './run.ts'
import { CPU_GROUP_ENV, CPU_NOTES_ENV, inGroup } from './cpu-time.ts'
import { costs } from './test-costs.ts'
import { unsupportedReason } from './image/podman.ts'
import { imageFirstTime } from './image/first-time.ts'
import { describePlan, plan } from './test-plan.ts'
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

/**
 * The image test when the host can run it, in two parts: what is made once per machine (the
 * packages, the base, the dependencies' stage), then the build and the runs. Otherwise a line
 * that says why it is skipped.
 */
function imageSteps(): { prepare: LaneStep[]; run: LaneStep[] } {
  const noImage = unsupportedReason()
  if (noImage) {
    process.stdout.write(
      `[test] container image: SKIPPED, ${noImage}; run npm run test:image where it can\n`,
    )
    return { prepare: [], run: [] }
  }
  const prepare = "container image's packages, base and dependencies (made once per machine)"
  const run = 'container image (podman: build, embedded and external services, restart)'
  return {
    prepare: [[prepare, 'tsx', ['scripts/test-image.ts', '--prepare'], {}]],
    run: [[run, 'tsx', ['scripts/test-image.ts'], {}]],
  }
}

/** Debian's packages the browser and fault tests need: binary, package, what else to do. */
const TEST_PACKAGES: Array<[string, string, string]> = [
  // The browser tests run in the headless shell; a few, and the phone benchmark, in the browser.
  [chromiumPaths.browser, 'chromium', ' or set CHROMIUM_PATH'],
  [chromiumPaths.shell, 'chromium-headless-shell', ' or set CHROMIUM_HEADLESS_SHELL_PATH'],
  // The fault tests put nginx (deploy/nginx) in front of two instances.
  ['/usr/sbin/nginx', 'nginx', ''],
]

/**
 * What this run does for the first time on this machine, with about how long it took on the
 * 2-core machine of docs/decisions/073-suite-by-the-machine.md.
 */
async function sayFirstTime() {
  const packages = TEST_PACKAGES.filter(([binary]) => !existsSync(binary)).map(([, pkg]) => pkg)
  const work = packages.length ? [`install ${packages.join(', ')} (about 1 minute)`] : []
  if (!unsupportedReason()) {
    const image = await imageFirstTime()
    if (image.length) {
      work.push(`${image.join(', ')} (about 6 minutes, before the browser tests start)`)
    }
  }
  if (work.length === 0) return
  process.stdout.write(
    `[test] the first run on this machine: it will ${work.join('; ')}; later runs reuse them\n`,
  )
}

/**
 * A step that failed within a lane: its name, exit code and message (with the failed tests and
 * unhandled errors its output named, scripts/test-report.ts).
 */
type LaneFailure = { step: string; code: number; message: string }

/** How many steps each lane has started. */
const stepsOf = new Map<string, number>()

/** `step` with more environment variables. */
const withEnv = ([name, command, args, env]: LaneStep, more: Record<string, string>): LaneStep => [
  name,
  command,
  args,
  { ...env, ...more },
]

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
    // Each step its own CPU group: a lane's second step is `label-2`.
    const count = (stepsOf.get(label) ?? 0) + 1
    stepsOf.set(label, count)
    const key = count === 1 ? label : `${label}-${count}`
    const group = cost.suite.sub(key)
    process.stdout.write(`\n[test] [${label}] ${name}\n`)
    try {
      const [file, groupArgs] = inGroup(group, commandFile(command), args)
      await runOrFail(file, groupArgs, {
        env: {
          ...env,
          ...extra,
          ...(group.dir ? { [CPU_GROUP_ENV]: group.dir, [CPU_NOTES_ENV]: cost.notes(key) } : {}),
        },
        prefix: `[${label}]`,
        onLine: (line) => {
          notes.onLine(line)
          deprecations.onLine(line)
        },
      })
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error
      // Said as the command it runs, not as the line that counts its CPU (scripts/cpu-time.ts).
      error.message = `${command} ${args.join(' ')} exited with ${error.code}`
      process.stdout.write(`[test] [${label}] FAILED: ${error.message}\n`)
      const named = notes.noted.map((line) => `\n[test]   [${label}] ${line}`).join('')
      failures.push({
        step: name,
        code: error.code || 1,
        message: `${name} (${error.message})${named}`,
      })
    } finally {
      cost.laneStep(key, `${label}: ${name}`, started, group)
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
  const machine = await plan()
  process.stdout.write(`[test] plan: ${describePlan(machine)}\n`)
  await sayFirstTime()
  step('packages and services (Chromium, nginx, Postgres, Redis)')
  for (const [binary, pkg, hint] of TEST_PACKAGES) ensurePackage(binary, pkg, hint)
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
    // Lanes side by side, as the plan says (scripts/test-plan.ts, docs/decisions/
    // 073-suite-by-the-machine.md): the image test's one-time work from here, then its build and
    // runs to the end; lint, types and the build; then the unit tests (some measure the engine's
    // timers) with the fault tests beside them where the cores allow (they mostly wait: outages,
    // timers running out); then, once the image's one-time work is done, the browser tests' two
    // groups (decision 068). A failure lets the other lanes finish, so one run reports every
    // failure; only a failed build stops what needs it.
    step('lint, types and the build | the container image, side by side')
    const { prepare, run } = imageSteps()
    const prepared = lane('image', prepare, env)
    const image = prepared.then(async (failed) =>
      failed.length ? failed : lane('image', run, env),
    )
    const checks = await settle([
      lane('lint', [['lint', 'npm', ['run', 'lint'], {}]], env),
      lane('types', [['typecheck', 'npm', ['run', 'typecheck'], {}]], env),
      lane('build', [['production build', 'npm', ['run', 'build'], {}]], env),
    ])
    const built = !checks.some((failure) => failure.step === 'production build')
    const skipped = built ? '' : ': SKIPPED, the build failed'
    const faultsEarly = built && machine.faultsBesideUnit
    step(`unit and integration tests${faultsEarly ? ' | fault tests' : ''} | the container image`)
    const faults = built
      ? faultsEarly
        ? lane('faults', [faultStep], env)
        : null
      : Promise.resolve([])
    const unitArgs = ['run', `--maxWorkers=${machine.unitWorkers}`]
    const units = await lane('unit', [['unit and integration tests', 'vitest', unitArgs, {}]], env)
    step("the container image's one-time work, finishing")
    await prepared
    step(`browser tests | browser tests alone | fault tests${skipped}`)
    const browserEnv = { E2E_WORKERS: String(machine.browserWorkers) }
    const tests = built
      ? await settle([
          lane('browser', [withEnv(browserStep, browserEnv)], env),
          lane('alone', [aloneStep], env),
          faults ?? lane('faults', [faultStep], env),
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
