// Where a page's script bytes go, for bench:weight: the same build made again with source maps
// beside its scripts (vite.config.ts, BENCH_SOURCE_MAPS_BUILD; the scripts' names and bytes are
// the site's own), and each script the page loads read through its map with source-map-explorer:
// minified bytes by package and by module, and its treemap as a picture.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { explore } from 'source-map-explorer'
import { launchChromium } from '../tests/e2e/chromium.ts'
import { root } from '../tests/setup/stack.ts'
import { fmt } from './support.ts'

const MAPS_BUILD = path.join(root, '.cache/bench-weight-maps')

/** Builds the site again with source maps, into .cache (about 15 s). */
export function buildWithSourceMaps() {
  execFileSync(path.join(root, 'node_modules/.bin/remix'), ['vite:build'], {
    cwd: root,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production', BENCH_SOURCE_MAPS_BUILD: MAPS_BUILD },
  })
}

/** A source's group: its package (the last node_modules/ in its path), else the site's folder. */
function groupOf(source: string) {
  const parts = source.split('node_modules/')
  if (parts.length > 1) {
    const [scope = '', name = ''] = parts.at(-1)!.split('/')
    return scope.startsWith('@') ? `${scope}/${name}` : scope
  }
  if (source.startsWith('[')) return source
  const folder = source.replace(/^(\.\.\/)+/, '').split('/')
  return `the site: ${folder.slice(0, 2).join('/')}`
}

const kib = (bytes: number) => `${fmt(bytes / 1024, 1)} KiB`

/**
 * The scripts `files` (names in build/client/assets) by package and module, as report lines;
 * with `picture`, their treemap is drawn there as a PNG (a phone-wide screenshot of
 * source-map-explorer's HTML).
 */
export async function whereBytesGo(files: string[], picture?: string) {
  const bundles = files
    .map((name) => path.join(MAPS_BUILD, 'client/assets', name))
    .filter((file) => existsSync(`${file}.map`))
    .map((file) => ({ code: file, map: `${file}.map` }))
  const missing = files.length - bundles.length
  const result = await explore(bundles, { onlyMapped: true, noBorderChecks: true })
  const byModule = new Map<string, number>()
  for (const bundle of result.bundles)
    for (const [source, { size }] of Object.entries(bundle.files))
      byModule.set(source, (byModule.get(source) ?? 0) + size)
  const byGroup = new Map<string, number>()
  for (const [source, size] of byModule)
    byGroup.set(groupOf(source), (byGroup.get(groupOf(source)) ?? 0) + size)
  const total = [...byModule.values()].reduce((sum, size) => sum + size, 0)
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(
        ([name, size]) =>
          `${kib(size).padStart(10)}  ${fmt((size / total) * 100, 1).padStart(5)} %  ${name}`,
      )
  const lines = [
    `minified bytes read through the source maps: ${kib(total)} in ${byModule.size} modules of ${bundles.length} scripts${missing ? ` (${missing} without a map)` : ''}`,
    "by package (the site's own code by folder):",
    ...top(byGroup, 14),
    'largest modules:',
    ...top(byModule, 10).map((line) => line.replace(/(\.\.\/)+/, '')),
  ]
  if (picture) await drawTreemap(bundles, picture)
  return lines
}

/** source-map-explorer's treemap of all the bundles together, as a picture. */
async function drawTreemap(bundles: Array<{ code: string; map: string }>, picture: string) {
  const html = (
    await explore(bundles, { onlyMapped: true, noBorderChecks: true, output: { format: 'html' } })
  ).output
  if (!html) return
  const page = path.join(root, '.cache/bench-weight-treemap.html')
  writeFileSync(page, html)
  mkdirSync(path.dirname(picture), { recursive: true })
  const browser = await launchChromium()
  try {
    const tab = await browser.newPage({ viewport: { width: 1200, height: 800 } })
    await tab.goto(`file://${page}`)
    await tab.screenshot({ path: picture })
  } finally {
    await browser.close()
  }
}
