import { expect, test } from 'vitest'
import { pageWindow } from './pager.tsx'

test('the pager shows a window of at most 5 pages around the current one', () => {
  expect(pageWindow(1, 1)).toEqual([1])
  expect(pageWindow(1, 3)).toEqual([1, 2, 3])
  expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5])
  expect(pageWindow(5, 10)).toEqual([3, 4, 5, 6, 7])
  expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10])
  expect(pageWindow(9, 10)).toEqual([6, 7, 8, 9, 10])
})
