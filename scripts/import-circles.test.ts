import path from 'node:path'
import { expect, test } from 'vitest'
import { circlesIn, importGraph, trackedSources } from './import-circles.ts'

const root = path.resolve(import.meta.dirname, '..')

test('no files of the tree import each other in a loop (type-only imports included)', () => {
  const files = trackedSources(root)
  const graph = importGraph(root, files)
  expect(files.length).toBeGreaterThan(500)
  // The graph is read: the app shell's imports are found, `~/` paths and relative ones alike.
  expect(graph.get('app/root.tsx')).toContain('app/types/root-data.ts')
  expect(graph.get('engine/engine.ts')).toContain('engine/context.ts')
  expect(circlesIn(graph)).toEqual([])
})

test('a loop of any length is found, once, and a file importing itself is none', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts', 'd.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['d.ts', 'e.ts']],
    ['e.ts', []],
    ['f.ts', ['g.ts']],
    ['g.ts', ['f.ts']],
  ])
  expect(circlesIn(graph)).toEqual([
    ['a.ts', 'b.ts', 'c.ts'],
    ['f.ts', 'g.ts'],
  ])
})
