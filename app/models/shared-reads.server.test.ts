import { expect, test } from 'vitest'
import { sleep, testEngine } from '../../engine/test-support.ts'
import { catalogRead, recentRead } from '~/models/shared-reads.server.ts'

/** A read that counts how often it really ran. */
function counted<T>(value: T) {
  const read = { runs: 0, load: async () => (read.runs++, value) }
  return read
}

test('a catalog read is kept until the catalog moves, and callers at once share it', async () => {
  const { engine } = testEngine()
  const read = counted(['row'])
  const together = await Promise.all([1, 2, 3].map(() => catalogRead(engine, 'k', read.load)))
  expect(together).toEqual([['row'], ['row'], ['row']])
  expect(await catalogRead(engine, 'k', read.load)).toEqual(['row'])
  expect(read.runs).toBe(1)
  await engine.catalogChanged()
  await catalogRead(engine, 'k', read.load)
  expect(read.runs).toBe(2)
  // Another key is another read.
  await catalogRead(engine, 'other', read.load)
  expect(read.runs).toBe(3)
})

test('a failed read is not kept', async () => {
  const { engine } = testEngine()
  let runs = 0
  const failing = async () => {
    runs++
    throw new Error('Postgres is away')
  }
  await expect(catalogRead(engine, 'failing', failing)).rejects.toThrow('away')
  await expect(catalogRead(engine, 'failing', failing)).rejects.toThrow('away')
  expect(runs).toBe(2)
})

test('a recent read is kept for its age, then read again', async () => {
  const read = counted(7)
  expect(await recentRead('stats', 100, read.load)).toBe(7)
  expect(await recentRead('stats', 100, read.load)).toBe(7)
  expect(read.runs).toBe(1)
  await sleep(120)
  await recentRead('stats', 100, read.load)
  expect(read.runs).toBe(2)
})
