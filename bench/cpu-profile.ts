// Reads a V8 `.cpuprofile` (as `node --cpu-prof` or the inspector's Profiler.stop gives it) and
// tells where the time went: self time by package and by function, and inclusive time (a
// sample counts once for everything on its stack) by package and by the server's own functions.
// `tsx bench/cpu-profile.ts FILE.cpuprofile [--top 25]` prints a profile.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { fmt } from './support.ts'

type CallFrame = { functionName: string; url: string; lineNumber: number }
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] }
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const inServerBundle = (url: string) =>
  url.endsWith('/build/server.js') && !url.includes('/node_modules/')

function packageOf(frame: CallFrame) {
  const { url } = frame
  if (!url) return frame.functionName
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (inModules) return inModules[1]!
  if (url.startsWith('node:')) return 'node'
  if (url.includes('/build/server/')) return 'app (remix build)'
  if (inServerBundle(url)) return 'server (build/server.js)'
  if (url.startsWith('wasm://')) return 'wasm'
  return url.replace(/^file:\/\//, '')
}

function functionOf(frame: CallFrame) {
  const url = frame.url
    .replace(/^file:\/\/.*?node_modules\//, '')
    .replace(/^file:\/\/.*?\/build\//, 'build/')
  return `${frame.functionName || '(anonymous)'}${url ? ` ${url}:${frame.lineNumber + 1}` : ''}`
}

const sources = new Map<string, string[]>()
/** The start of the line a function begins on, to tell anonymous ones apart. */
function sourceLine(frame: CallFrame) {
  if (!sources.has(frame.url)) {
    let lines: string[] = []
    try {
      lines = readFileSync(fileURLToPath(frame.url), 'utf8').split('\n')
    } catch {
      // Gone or not a file: the name and line number have to do.
    }
    sources.set(frame.url, lines)
  }
  return (sources.get(frame.url)![frame.lineNumber] ?? '').trim().slice(0, 70)
}

const add = (map: Map<string, number>, key: string, us: number) =>
  map.set(key, (map.get(key) ?? 0) + us)

/** Times in µs: self and inclusive, by package and by function; busy and idle totals. */
export function profileTimes(file: string) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id)
  const times = {
    selfByPackage: new Map<string, number>(),
    selfByFunction: new Map<string, number>(),
    inclusiveByPackage: new Map<string, number>(),
    /** Only the server's own code (build/server.js): what the work was done for. */
    inclusiveByServerFunction: new Map<string, number>(),
    busy: 0,
    idle: 0,
  }
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample stands for the time until the next one.
    const us = profile.timeDeltas[i + 1] ?? 0
    const leaf = byId.get(profile.samples[i]!)
    if (!leaf) continue
    if (leaf.callFrame.functionName === '(idle)') {
      times.idle += us
      continue
    }
    times.busy += us
    add(times.selfByPackage, packageOf(leaf.callFrame), us)
    add(times.selfByFunction, functionOf(leaf.callFrame), us)
    const packages = new Set<string>()
    const own = new Set<string>()
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame
      if (frame.functionName === '(root)') continue
      // Node's own modules and native frames stand under nearly everything: left out here.
      if (frame.url && !frame.url.startsWith('node:')) packages.add(packageOf(frame))
      if (inServerBundle(frame.url)) own.add(`${functionOf(frame)}  ${sourceLine(frame)}`)
    }
    for (const pkg of packages) add(times.inclusiveByPackage, pkg, us)
    for (const fn of own) add(times.inclusiveByServerFunction, fn, us)
  }
  return times
}

/** A few lines: busy share, then the top packages and functions by self and inclusive time. */
export function describeProfile(file: string, top = 12) {
  const times = profileTimes(file)
  const total = times.busy + times.idle
  const share = (us: number) => `${fmt((100 * us) / Math.max(1, times.busy), 1).padStart(5)} %`
  const rank = (title: string, map: Map<string, number>, n: number) => [
    `  ${title} (share of busy time):`,
    ...[...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `    ${share(us)}  ${fmt(us / 1000).padStart(6)} ms  ${name}`),
  ]
  return [
    `${file}: ${fmt(total / 1e6, 1)} s profiled, busy ${fmt((100 * times.busy) / Math.max(1, total), 1)} %`,
    ...rank('self time by package', times.selfByPackage, 8),
    ...rank(
      'inclusive time by package (Node and native frames left out)',
      times.inclusiveByPackage,
      10,
    ),
    ...rank('inclusive time in the server (build/server.js)', times.inclusiveByServerFunction, 8),
    ...rank('top functions by self time', times.selfByFunction, top),
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' } },
  })
  for (const file of positionals) {
    process.stdout.write(`${describeProfile(file, Number(values.top))}\n`)
  }
}
