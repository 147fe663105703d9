import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { addressLines, routeManifest } from '../tests/support/route-manifest.ts'

// The site's addresses, pinned: wherever a route module lives (app/routes.ts), each address, its
// index flag and the address of the layout it renders in stay as listed in routes-addresses.txt.
// A route added or removed on purpose is a line added or removed there.

const pinned = readFileSync(path.join(import.meta.dirname, 'routes-addresses.txt'), 'utf8')
  .split('\n')
  .filter(Boolean)
const routes = routeManifest()

test('every address the app answers is the pinned list, and only it', () => {
  expect(addressLines(routes)).toEqual(pinned)
})

test('no two routes answer the same address', () => {
  const lines = addressLines(routes)
  expect(lines.filter((line, i) => lines.indexOf(line) !== i)).toEqual([])
})

test('every module under app/routes/ is a route the app serves', () => {
  const served = new Set(routes.map((route) => route.file))
  const files = readdirSync(path.join(import.meta.dirname, 'routes'), {
    recursive: true,
    encoding: 'utf8',
  })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => `routes/${file.split(path.sep).join('/')}`)
  expect(files.filter((file) => !served.has(file))).toEqual([])
})
