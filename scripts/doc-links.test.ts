import path from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  brokenCitations,
  citationProblem,
  citationsIn,
  headingAnchors,
  headingSlug,
  trackedCitingFiles,
} from './doc-links.ts'

const root = path.resolve(import.meta.dirname, '..')
// This file cites missing docs on purpose (the fixtures below).
const THIS_FILE = 'scripts/doc-links.test.ts'

test('every doc that a comment or a doc cites exists, with the heading it names', () => {
  const files = trackedCitingFiles(root).filter((file) => file !== THIS_FILE)
  expect(files.length).toBeGreaterThan(100)
  expect(files).toContain('server/realtime.ts')
  expect(files).toContain('docs/rules.md')
  expect(brokenCitations(root, files)).toEqual([])
})

describe('anchors as GitHub makes them', () => {
  test('lowercase, punctuation dropped, spaces to hyphens', () => {
    expect(headingSlug('Real-time events')).toBe('real-time-events')
    expect(headingSlug('Freedom Pay (`PAYMENT_PROVIDER=freedompay`)')).toBe(
      'freedom-pay-payment_providerfreedompay',
    )
    expect(headingSlug('Top-up and payments')).toBe('top-up-and-payments')
    expect(headingSlug('Rotate SESSION_SECRET, step 2: done.')).toBe(
      'rotate-session_secret-step-2-done',
    )
    expect(headingSlug('Ставки и [лоты](lots.md)')).toBe('ставки-и-лоты')
  })

  test('a repeated heading gets a number; headings in code blocks are none', () => {
    const markdown = ['# Rules', '## Calls', '### Calls', '```sh', '# not a heading', '```'].join(
      '\n',
    )
    expect([...headingAnchors(markdown)]).toEqual(['rules', 'calls', 'calls-1'])
  })
})

describe('a broken citation is found', () => {
  const repo = new Map([
    ['docs/rules.md', '# Product rules\n\n## Real-time events\n\nText.\n'],
    ['docs/decisions/001-x.md', '# 001. X\n'],
  ])
  const read = (file: string) => repo.get(file) ?? null
  const problems = (file: string, text: string) =>
    citationsIn(file, text).map((citation) => citationProblem(citation, read))

  test('an anchor no heading has', () => {
    expect(problems('server/realtime.ts', '// the map (docs/rules.md#real-time); more')).toEqual([
      'docs/rules.md has no heading #real-time',
    ])
    expect(problems('server/realtime.ts', '// (docs/rules.md#real-time-events)')).toEqual([null])
  })

  test('a file that is not there', () => {
    expect(problems('app/x.ts', '/** docs/decisions/002-y.md and docs/rules.md */')).toEqual([
      'docs/decisions/002-y.md does not exist',
      null,
    ])
  })

  test("a doc's relative link, to another doc or to a heading of its own", () => {
    const decision = [
      'See [the rules](../rules.md#real-time-events) and [001](001-x.md).',
      'Also [gone](../rules.md#gone), [here](#nowhere) and [a page](/auctions).',
    ].join('\n')
    expect(problems('docs/decisions/001-x.md', decision)).toEqual([
      null,
      null,
      'docs/rules.md has no heading #gone',
      'docs/decisions/001-x.md has no heading #nowhere',
    ])
  })
})
