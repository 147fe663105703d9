// What each part of `npm test` cost: wall seconds and CPU seconds (scripts/cpu-time.ts) of each
// step, each lane and each test file, printed at the end whether the suite passed or not.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  groupFileName,
  machineBusySeconds,
  runGroup,
  SERVER_GROUP,
  type CpuGroup,
} from './cpu-time.ts'

export type Cost = { name: string; wall: number; cpu: number | null }
/** A test file's cost: its own processes', and its lane's shared server's while it ran. */
type FileCost = Cost & { server: number | null }

/** How many of the most expensive test files are named at the end. */
const TOP = 10
/** Every lane's and test file's cost, written at the end (a folder git ignores). */
const REPORT = path.resolve(import.meta.dirname, '../.cache/test-costs.tsv')

const cpu = (seconds: number | null) =>
  seconds === null ? '    -' : seconds.toFixed(0).padStart(5)
const line = (text: string) => process.stdout.write(`[test] ${text}\n`)
const row = ({ name, wall, cpu: used }: Cost) =>
  line(`  ${wall.toFixed(0).padStart(5)} s ${cpu(used)} s  ${name}`)

/** A line of the report: wall, CPU, the shared server's CPU, name. */
const reportRow = (cost: Cost, server: number | null) =>
  [cost.wall.toFixed(1), cost.cpu?.toFixed(1) ?? '', server?.toFixed(1) ?? '', cost.name].join('\t')

export function costs() {
  const started = Date.now()
  const busyAtStart = machineBusySeconds()
  const suite = runGroup(`penny-auction-test-${process.pid}`)
  const steps: Cost[] = []
  const laneSteps: Cost[] = []
  const files: FileCost[] = []
  /** Where each lane's test files note their wall time (tests/setup/cpu-group.ts). */
  const notesRoot = mkdtempSync(path.join(tmpdir(), 'test-costs-'))
  const noteOf = (lane: string, file: string): { wall: number; server: number | null } => {
    try {
      return JSON.parse(readFileSync(path.join(notesRoot, lane, `${file}.json`), 'utf8'))
    } catch {
      return { wall: 0, server: null }
    }
  }
  let current: { name: string; started: number; cpu: number | null } | null = null

  function endStep() {
    if (!current) return
    const used = suite.seconds()
    steps.push({
      name: current.name,
      wall: (Date.now() - current.started) / 1000,
      cpu: used === null || current.cpu === null ? null : used - current.cpu,
    })
    current = null
  }

  return {
    /** The group of this run: lanes get theirs under it. */
    suite,
    /** Starts the next step of the run (the previous one ends). */
    step(name: string) {
      endStep()
      current = { name, started: Date.now(), cpu: suite.seconds() }
    },
    /** The folder where a lane's test files note their wall time. */
    notes: (lane: string) => path.join(notesRoot, lane),
    /** A step within a lane, its group's CPU, and the test files' groups under it. */
    laneStep(lane: string, name: string, started: number, group: CpuGroup) {
      laneSteps.push({ name, wall: (Date.now() - started) / 1000, cpu: group.seconds() })
      for (const child of group.children()) {
        if (child.name === SERVER_GROUP) {
          laneSteps.push({ name: `${lane}: its shared server`, wall: 0, cpu: child.seconds })
          continue
        }
        const note = noteOf(lane, child.name)
        files.push({ name: groupFileName(child.name), cpu: child.seconds, ...note })
      }
    },
    print() {
      endStep()
      const total = steps.reduce((sum, { wall }) => sum + wall, 0)
      line('')
      line('times (wall seconds, then CPU seconds: user + system of every process each started):')
      steps.forEach(row)
      row({ name: 'in all', wall: total, cpu: suite.seconds() })
      if (laneSteps.length) line('within the steps, each lane:')
      laneSteps.forEach(row)
      const busy = machineBusySeconds()
      if (busy !== null && busyAtStart !== null) {
        const wall = (Date.now() - started) / 1000
        line(
          `the whole machine meanwhile: ${(busy - busyAtStart).toFixed(0)} CPU seconds busy in ${wall.toFixed(0)} s (the services it did not start and anything else running included)`,
        )
      }
      if (suite.dir === null) {
        line('CPU seconds not measured: no CPU accounting group could be made (root on Linux)')
        return
      }
      const whole = (file: FileCost) => (file.cpu ?? 0) + (file.server ?? 0)
      files.sort((a, b) => whole(b) - whole(a))
      const top = files.slice(0, TOP)
      if (top.length === 0) return
      mkdirSync(path.dirname(REPORT), { recursive: true })
      writeFileSync(
        REPORT,
        [
          'wall s\tCPU s\tserver CPU s\tfile',
          ...laneSteps.map((cost) => reportRow(cost, null)),
          ...files.map((file) => reportRow(file, file.server)),
        ].join('\n') + '\n',
      )
      line(`every lane and file: ${path.relative(process.cwd(), REPORT)}`)
      line(`the ${top.length} test files that cost the most CPU:`)
      line("  wall s, CPU s of its own processes (and what they started), CPU s of its lane's")
      line('  shared server while it ran (shared with the files running beside it)')
      for (const file of top) {
        line(
          `  ${file.wall.toFixed(0).padStart(5)} s ${cpu(file.cpu)} s ${cpu(file.server)} s  ${file.name}`,
        )
      }
    },
    remove() {
      suite.remove()
      rmSync(notesRoot, { recursive: true, force: true })
    },
  }
}
