// Where a server spent its time: the functions with the most self time in V8 CPU profiles
// (`--cpu-prof`), grouped by function and package. `npx tsx bench/profile.ts DIR_OR_FILE [--top 25]`.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'

type Node = {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] }

/** A source file as its package (or the app's own file), short. */
function place(url: string) {
  if (!url) return '(native)'
  const modules = url.lastIndexOf('node_modules/')
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  if (url.startsWith('node:')) return url
  return path.relative(process.cwd(), url.replace(/^file:\/\//, ''))
}

export function summarize(files: string[], top: number) {
  const selfByFunction = new Map<string, number>()
  const selfByPlace = new Map<string, number>()
  const totalByAppFunction = new Map<string, number>()
  const add = (map: Map<string, number>, key: string, ms: number) =>
    map.set(key, (map.get(key) ?? 0) + ms)
  let total = 0
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
    const byId = new Map(profile.nodes.map((node) => [node.id, node]))
    const parent = new Map<number, number>()
    for (const node of profile.nodes)
      for (const child of node.children ?? []) parent.set(child, node.id)
    const nameOf = (node: Node) => {
      const frame = node.callFrame
      const where = place(frame.url)
      return `${frame.functionName || '(anonymous)'}  ${where}${frame.url ? `:${frame.lineNumber + 1}` : ''}`
    }
    profile.samples.forEach((id, i) => {
      const node = byId.get(id)!
      const ms = (profile.timeDeltas[i] ?? 0) / 1000
      add(selfByFunction, nameOf(node), ms)
      add(selfByPlace, place(node.callFrame.url), ms)
      total += ms
      // Inclusive time of the app's own functions (its build), each once per sample.
      const seen = new Set<string>()
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!
        const url = frame.callFrame.url
        if (!url.includes('/build/') || url.includes('node_modules/')) continue
        const name = nameOf(frame)
        if (seen.has(name)) continue
        seen.add(name)
        add(totalByAppFunction, name, ms)
      }
    })
  }
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => `${((100 * ms) / total).toFixed(1).padStart(5)} %  ${name}`)
  return [
    `${(total / 1000).toFixed(1)} s of samples in ${files.length} profile(s)`,
    '',
    'self time by package / file:',
    ...rows(selfByPlace),
    '',
    'self time by function:',
    ...rows(selfByFunction),
    '',
    "total time (with what they call) of the app's own functions:",
    ...rows(totalByAppFunction),
  ].join('\n')
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
})
const files = positionals.flatMap((target) =>
  statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => path.join(target, name))
    : [target],
)
if (files.length === 0) {
  process.stderr.write('no .cpuprofile files given\n')
  process.exit(1)
}
process.stdout.write(`${summarize(files, Number(values.top))}\n`)
