// bench:phone's table: each row's runs beside the goals, and each visit's responses on request.
import type { VisitFigures } from './phone-browser.ts'
import { fmt } from './support.ts'

export const GOALS = { paint: 1_500, hydrated: 4_500, bid: 5_000 }

/** One run of a row: its visits' figures (ms from navigation start) and the first one's KiB. */
export type Run = {
  paint: number | null
  hydrated: number | null
  /** The bid, pressed once the page had hydrated (JavaScript on only). */
  bidHydrated: number | null
  /** The bid, pressed as soon as the button showed. */
  bidShown: number | null
  kib: Record<string, number>
  /** KiB received before the page hydrated (JavaScript on, pressed once hydrated). */
  kibBeforeHydrated: number | null
  /** Of them, scripts. */
  scriptKibBeforeHydrated: number | null
}

/** One visit of the bare Remix app's page: the floor. */
export type FloorRun = { paint: number | null; hydrated: number | null; scriptKib: number | null }

/** The goals as ratios to the floor measured in the same run (issue 41). */
export const FLOOR_GOALS = { hydratedRatio: 1.3, scriptKibOver: 40 }

const NAME = 30
const column = (text: string, width = 26) => text.padEnd(width)

/** Each run's figure in seconds, and whether all met the goal. */
function seconds(values: Array<number | null>, goal: number) {
  if (values.every((value) => value === null)) return column('n/a')
  const each = values.map((value) => (value === null ? '?' : fmt(value / 1000, 2))).join(' / ')
  const met = values.every((value) => value !== null && value <= goal)
  return column(`${each} s ${met ? '(met)' : '(not met)'}`)
}

/** KiB received, by resource type. */
const weights = (kib: Record<string, number>) =>
  Object.entries(kib)
    .sort((a, b) => b[1] - a[1])
    .map(([type, size]) => `${type} ${fmt(size, 1)}`)
    .join(', ')

/**
 * What the network alone takes to hydrate a page: its bytes at the link's speed, and two round
 * trips (the document, then the files it names); the CPU's work comes on top.
 */
const networkFloor = (kib: number | null, kbps: number, rttMs: number) =>
  kib === null
    ? ''
    : `; before hydration ${fmt(kib, 1)} KiB: >= ${fmt(kib / kbps + (2 * rttMs) / 1000, 2)} s of network alone`

export function tableLines(
  rows: Array<{ name: string; runs: Run[] }>,
  link: { kbps: number; rttMs: number },
) {
  const goal = (ms: number) => column(`<= ${ms / 1000} s`)
  return [
    `${column('', NAME)}${column('first paint')}${column('hydrated')}${column('bid, once hydrated')}bid, pressed when shown`,
    `${column('goal', NAME)}${goal(GOALS.paint)}${goal(GOALS.hydrated)}${goal(GOALS.bid)}${goal(GOALS.bid)}`,
    ...rows.flatMap(({ name, runs }) => {
      const of = (key: Exclude<keyof Run, 'kib'>) => runs.map((run) => run[key])
      return [
        `${column(name, NAME)}${seconds(of('paint'), GOALS.paint)}${seconds(of('hydrated'), GOALS.hydrated)}${seconds(of('bidHydrated'), GOALS.bid)}${seconds(of('bidShown'), GOALS.bid)}`,
        `${column('', NAME)}KiB received (first run): ${weights(runs[0]?.kib ?? {})}${networkFloor(runs[0]?.kibBeforeHydrated ?? null, link.kbps, link.rttMs)}`,
      ]
    }),
  ]
}

/** A visit's responses: when each was asked for and done (ms), its KiB, type and path. */
export const responseLines = ({ responses }: VisitFigures) =>
  responses.map(
    ({ sent, done, kib, type, url }) =>
      `${fmt(sent).padStart(6)} -> ${fmt(done).padStart(6)} ms  ${fmt(kib, 1).padStart(6)} KiB  ${type.padEnd(10)} ${url.slice(0, 90)}`,
  )

const median = (values: Array<number | null>) => {
  const known = values.filter((value): value is number => value !== null).sort((a, b) => a - b)
  return known.length ? known[Math.floor((known.length - 1) / 2)]! : null
}

/**
 * The floor's figures, and each page's (JavaScript on) beside it: hydrated as a ratio to the
 * floor's (goal <= 1.3x), scripts before hydration as KiB over the floor's (goal <= +40 KiB).
 * Medians of the runs.
 */
export function floorLines(rows: Array<{ name: string; runs: Run[] }>, floor: FloorRun[]) {
  const floorHydrated = median(floor.map((run) => run.hydrated))
  const floorScripts = median(floor.map((run) => run.scriptKib))
  const lines = [
    `the floor, the bare Remix app's page (bench/bare.ts), same phone and link: first paint ${secondsOf(median(floor.map((run) => run.paint)))}, hydrated ${secondsOf(floorHydrated)}, scripts before hydration ${kibOf(floorScripts)}`,
    `goals: hydrated <= ${FLOOR_GOALS.hydratedRatio}x the floor's; scripts before hydration <= the floor's + ${FLOOR_GOALS.scriptKibOver} KiB`,
  ]
  for (const { name, runs } of rows) {
    const hydrated = median(runs.map((run) => run.hydrated))
    const scripts = median(runs.map((run) => run.scriptKibBeforeHydrated))
    if (hydrated === null || floorHydrated === null) continue
    const ratio = hydrated / floorHydrated
    const over = scripts === null || floorScripts === null ? null : scripts - floorScripts
    lines.push(
      `${column(name, NAME)}hydrated ${secondsOf(hydrated)} = ${fmt(ratio, 2)}x the floor ${ratio <= FLOOR_GOALS.hydratedRatio ? '(met)' : '(not met)'}; scripts ${kibOf(scripts)} = ${over === null ? '?' : `${over >= 0 ? '+' : ''}${fmt(over, 1)} KiB`} ${over !== null && over <= FLOOR_GOALS.scriptKibOver ? '(met)' : '(not met)'}`,
    )
  }
  return lines
}

const secondsOf = (ms: number | null) => (ms === null ? '?' : `${fmt(ms / 1000, 2)} s`)
const kibOf = (kib: number | null) => (kib === null ? '?' : `${fmt(kib, 1)} KiB`)
