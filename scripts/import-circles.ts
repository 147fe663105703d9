import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/** Which files a source file imports (`import type` and `export … from` included). */
export type ImportGraph = Map<string, string[]>

const SOURCE = /\.(ts|tsx|mts)$/

/** The tracked TypeScript files of the tree, generated code left out. */
export function trackedSources(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => SOURCE.test(file) && !file.startsWith('prisma/generated/'))
}

/** The file an import names, as tsconfig's `~/*` path and relative paths resolve it. */
function resolve(root: string, from: string, specifier: string): string | null {
  let base: string
  if (specifier.startsWith('~/')) base = path.join('app', specifier.slice(2))
  else if (specifier.startsWith('.')) base = path.join(path.dirname(from), specifier)
  else return null
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (SOURCE.test(candidate) && existsSync(path.join(root, candidate))) return candidate
  }
  return null
}

/** Every file's imports of other files of the tree. */
export function importGraph(root: string, files: string[]): ImportGraph {
  const graph: ImportGraph = new Map()
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8')
    const { importedFiles } = ts.preProcessFile(text, true, true)
    const targets = importedFiles
      .map((imported) => resolve(root, file, imported.fileName))
      .filter((target): target is string => target !== null && target !== file)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** The circles of a graph: each a group of files that import each other in a loop, sorted. */
export function circlesIn(graph: ImportGraph): string[][] {
  // Tarjan's strongly connected components; a group of two or more files is a circle.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const circles: string[][] = []
  let next = 0
  const visit = (file: string) => {
    index.set(file, next)
    low.set(file, next)
    next += 1
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(member)
    } while (member !== file)
    if (group.length > 1) circles.push(group.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return circles
}
