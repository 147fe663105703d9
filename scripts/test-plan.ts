// How `npm test` spreads its work over this machine (docs/decisions/073-suite-by-the-machine.md):
// how many test files run at once and which lanes run side by side follow the machine's cores
// (os.availableParallelism()) and what each lane was measured to use, in CPU seconds per second,
// from `npm test`'s own report on a 2-core machine. Other work already running is measured and
// said, not planned around: fewer lanes would only give it a larger share of the cores.
import os from 'node:os'
import { machineBusySeconds } from './cpu-time.ts'

/**
 * CPU seconds per second each lane used, measured (docs/decisions/073-suite-by-the-machine.md):
 * the unit tests (3 files at a time), one browser file with its share of its server, the files
 * that run alone with their server, the fault tests (mostly waiting on outages and timers).
 */
export const RATES = { unit: 0.8, browserFile: 0.55, alone: 0.55, faults: 0.25 } as const

export type Plan = {
  cores: number
  /** Cores other work kept busy when the suite started. */
  othersBusy: number
  /** Unit and integration test files at a time. */
  unitWorkers: number
  /** Browser test files at a time in the group that shares its server. */
  browserWorkers: number
  /** The fault tests start beside the unit tests (else beside the browser tests). */
  faultsBesideUnit: boolean
}

/** The plan for `cores` cores (`othersBusy` of them kept busy by other work when it started). */
export function planFor(cores: number, othersBusy = 0): Plan {
  const free = Math.max(1, cores)
  // Unit files mostly wait on Redis, Postgres and timers: one more than the free cores.
  const unitWorkers = Math.min(8, Math.max(2, Math.round(free) + 1))
  // What the files alone and the fault tests leave of the free cores, one browser file per
  // share; at least one, at most eight.
  const forBrowsers = free - RATES.alone - RATES.faults
  const browserWorkers = Math.min(8, Math.max(1, Math.floor(forBrowsers / RATES.browserFile)))
  // The fault tests are light enough to run beside the unit tests (which time the engine's
  // timers) only while both fit the free cores.
  const faultsBesideUnit = RATES.unit + RATES.faults <= free
  return { cores, othersBusy, unitWorkers, browserWorkers, faultsBesideUnit }
}

/** Cores kept busy by the machine's other work, measured over `ms` before the suite starts. */
export async function othersBusyNow(ms = 1_000): Promise<number> {
  const before = machineBusySeconds()
  const started = performance.now()
  await new Promise((resolve) => setTimeout(resolve, ms))
  const after = machineBusySeconds()
  if (before === null || after === null) return 0
  return Math.max(0, (after - before) / ((performance.now() - started) / 1000))
}

export async function plan(): Promise<Plan> {
  return planFor(os.availableParallelism(), await othersBusyNow())
}

export function describePlan(p: Plan): string {
  const others =
    p.othersBusy >= 0.5
      ? ` (other work keeps ${p.othersBusy.toFixed(1)} of them busy: every step will take longer)`
      : ''
  return [
    `${p.cores} cores${others}:`,
    `unit tests ${p.unitWorkers} files at a time${p.faultsBesideUnit ? ', the fault tests beside them' : ''};`,
    `browser tests ${p.browserWorkers} files at a time beside the files that run alone on their server${p.faultsBesideUnit ? '' : ' and the fault tests'}`,
  ].join(' ')
}
