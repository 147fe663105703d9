import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { spawnSync } from 'node:child_process'
import { root } from './run.ts'
import { deprecationNotes, failureNotes } from './test-report.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'test-report-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test("a vitest run's failed tests and unhandled errors are noted, in colour or not", async () => {
  writeFileSync(
    path.join(dir, 'sums.test.ts'),
    [
      "import { describe, expect, test } from 'vitest'",
      "describe('sums', () => {",
      "  test('adds', () => expect(1 + 1).toBe(3))",
      "  test('passes', () => expect(2 + 2).toBe(4))",
      '})',
      "test('leaves an error behind', () => {",
      "  setTimeout(() => { throw new Error('late failure') }, 0)",
      '})',
      "test('waits', () => new Promise((done) => setTimeout(done, 200)))",
    ].join('\n'),
  )
  for (const colour of ['0', '1']) {
    const notes = failureNotes()
    // Its output is only read: a FAIL line in this suite's own output would mislead.
    const vitest = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', '--root', dir], {
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: colour, CI: '' },
    })
    expect(vitest.status).toBe(1)
    for (const line of `${vitest.stdout}\n${vitest.stderr}`.split('\n')) notes.onLine(line)
    const text = notes.noted.join('\n')
    expect(text).toMatch(/^FAIL {1,2}sums\.test\.ts > sums > adds$/m)
    expect(text).toMatch(/^ {2}AssertionError: expected 2 to be 3/m)
    expect(text).toMatch(/Unhandled Error/)
    expect(text).toMatch(/^ {2}Error: late failure$/m)
    expect(text).not.toMatch(/passes/)
    expect(text).not.toContain('\u001b[')
  }
})

describe('deprecationNotes', () => {
  test("keeps Remix's future-change warnings and Node's deprecations, each once", () => {
    const notes = deprecationNotes()
    const remix =
      '[alone] ⚠️ REMIX FUTURE CHANGE: Externally-accessed resource routes will no longer be able to return raw JavaScript objects'
    const node =
      '[unit] (node:123) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.'
    for (const line of [remix, '[unit] ✓ a test', remix, node, '[browser] all passed'])
      notes.onLine(line)
    expect([...notes.noted]).toEqual([remix, node])
  })
})
