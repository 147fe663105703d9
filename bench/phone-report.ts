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
}

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
