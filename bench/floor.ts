// The framework's floor in bench:ssr: the bare app's (bench/bare.ts) text route and one-line
// document, measured before and after the site's phases of the same run, and each of the site's
// figures as a multiple of one of them, beside its goal.
import { startBareApp, type BareApp } from './bare.ts'
import type { Snapshot } from './content.ts'
import { runLoad, type LoadSpec } from './load.ts'
import { processCpuMs } from './site.ts'
import { fmt } from './support.ts'

/** What a figure is measured against: the bare text route, or the bare one-line document. */
export type FloorKind = 'text' | 'document'

export const BARE_PATHS: Record<FloorKind, string> = { text: '/status.txt', document: '/status' }

/** Runs a load against the bare app; its server CPU per answer, ms. */
export async function loadBare(bare: BareApp, spec: LoadSpec) {
  const before = processCpuMs(bare.pid)
  const report = await runLoad(spec)
  const after = processCpuMs(bare.pid)
  const cpuPerAnswer =
    before === null || after === null || report.answeredAll === 0
      ? null
      : (after - before) / report.answeredAll
  return { report, cpuPerAnswer }
}

/** Measures the bare app's text route and document, one after the other, into `floor`. */
export async function measureFloor(
  bare: BareApp,
  floor: Floor,
  spec: { concurrency: number; warmupSeconds: number; seconds: number },
  say: (line: string) => void,
) {
  for (const kind of ['text', 'document'] as const) {
    const path = BARE_PATHS[kind]
    say(`bare ${path}: ${spec.warmupSeconds + spec.seconds} s...`)
    const { cpuPerAnswer } = await loadBare(bare, {
      ...spec,
      mode: 'pages',
      expect: 'ok',
      targets: [bare.url],
      paths: [path],
    })
    floor.add(kind, cpuPerAnswer)
  }
}

/** Each floor's samples (ms per answer); the floor is their mean. */
export class Floor {
  readonly samples: Record<FloorKind, number[]> = { text: [], document: [] }

  add(kind: FloorKind, ms: number | null) {
    if (ms !== null) this.samples[kind].push(ms)
  }

  of(kind: FloorKind): number | null {
    const samples = this.samples[kind]
    return samples.length === 0 ? null : samples.reduce((a, b) => a + b, 0) / samples.length
  }

  /** `bare /status.txt  1.23 ms  (1.20, 1.26)` for each floor. */
  lines(label: (text: string) => string): string[] {
    return (['text', 'document'] as const).map((kind) => {
      const floor = this.of(kind)
      const samples = this.samples[kind].map((ms) => fmt(ms, 2)).join(', ')
      return `${label(`bare ${BARE_PATHS[kind]}`)}${floor === null ? 'n/a' : `${fmt(floor, 2)} ms`}   (${kind === 'text' ? 'text route' : 'one-line document'}; runs: ${samples})`
    })
  }
}

export type Figure = {
  name: string
  /** Server CPU per answer, ms. */
  cpuPerAnswer: number | null
  floor: FloorKind
  /** The most it may be, as a multiple of its floor; none: printed without a goal. */
  goal?: number
}

/** `name  x.xx ms = y.y x bare /status   (goal <= 2x: met)` for each figure. */
export function ratioLines(floor: Floor, figures: Figure[], label: (text: string) => string) {
  return figures.map(({ name, cpuPerAnswer, floor: kind, goal }) => {
    const reference = floor.of(kind)
    const ms = cpuPerAnswer === null ? 'n/a' : `${fmt(cpuPerAnswer, 2)} ms`
    if (reference === null || cpuPerAnswer === null) return `${label(name)}${ms}`
    const ratio = cpuPerAnswer / reference
    const verdict =
      goal === undefined ? '' : `   (goal <= ${goal}x: ${ratio <= goal ? 'met' : 'not met'})`
    return `${label(name)}${ms} = ${fmt(ratio, 2)}x bare ${BARE_PATHS[kind]}${verdict}`
  })
}

/**
 * The content's floor (bench/content.ts): the bare app built again with the site's answers of
 * these pages, its one-line document and each page measured in it, and each page's figure beside
 * its content's, both as multiples of their own bare document.
 */
export async function contentFloorLines(
  snapshots: readonly Snapshot[],
  figures: readonly Figure[],
  floor: Floor,
  spec: { concurrency: number; warmupSeconds: number; seconds: number },
  say: (line: string) => void,
  label: (text: string) => string,
) {
  const app = await startBareApp(say, snapshots)
  try {
    const load = (path: string) => {
      say(`bare app with the site's content, ${path}: ${spec.warmupSeconds + spec.seconds} s...`)
      return loadBare(app, {
        ...spec,
        mode: 'pages',
        expect: 'ok',
        targets: [app.url],
        paths: [path],
      })
    }
    // The content app's own one-line document, before and after its pages.
    const documents = new Floor()
    const pages: Array<{ cpuPerAnswer: number | null; kib: number }> = []
    const bareDocument = async () => {
      documents.add('document', (await load(BARE_PATHS.document)).cpuPerAnswer)
    }
    await bareDocument()
    for (const snapshot of snapshots) {
      const { report, cpuPerAnswer } = await load(snapshot.path)
      pages.push({ cpuPerAnswer, kib: report.bytes / Math.max(1, report.answered) / 1024 })
    }
    await bareDocument()
    const document = documents.of('document')
    const siteDocument = floor.of('document')
    return [
      `the same pages in the bare app: their markup as plain elements, their loaders' data from one loader (bench/content.ts)`,
      documents.lines(label)[1]!,
      ...snapshots.map((snapshot, i) => {
        const content = pages[i]!.cpuPerAnswer
        const site = figures.find((figure) => figure.name === snapshot.name)?.cpuPerAnswer ?? null
        if (content === null || site === null || document === null || siteDocument === null)
          return `${label(snapshot.name)}n/a`
        const contentRatio = content / document
        const siteRatio = site / siteDocument
        return `${label(snapshot.name)}content ${fmt(content, 2)} ms (${fmt(pages[i]!.kib, 1)} KiB gzip) = ${fmt(contentRatio, 2)}x bare /status; the site's ${fmt(siteRatio, 2)}x = ${fmt(siteRatio / contentRatio, 2)}x its content`
      }),
    ]
  } finally {
    await app.stop()
  }
}
