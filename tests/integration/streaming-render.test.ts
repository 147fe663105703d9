import { execFileSync } from 'node:child_process'
import { expect, test } from 'vitest'

// The production server renderer as the server runs it (NODE_ENV=production, in a process of
// its own): the page it streams must be, byte for byte, what React renders to a string, whatever
// the characters and wherever its pieces fall. React 18's renderer broke a multi-byte character
// that fell on its 2 KB chunk boundary (U+FFFD in Cyrillic labels, react#24985); React 19 does
// not, and this keeps it so across upgrades.
const program = String.raw`
const { renderToPipeableStream, renderToString } = require('react-dom/server')
const { createElement: h, Suspense } = require('react')
const { Writable } = require('node:stream')
let ready = false
const later = new Promise((resolve) => setTimeout(() => { ready = true; resolve() }, 10))
function Late() {
  if (!ready) throw later
  return h('b', null, 'поздно ✓ 𝄞')
}
const tree = () =>
  h('div', { title: 'Привет "мир" <x> & 𝄞', style: { color: 'red' } },
    Array.from({ length: 2000 }, (_, i) =>
      h('p', { key: i, className: 'c' + i, hidden: i % 7 === 0, 'data-n': i },
        'Текст ', i, ' ✓ ', 'ж'.repeat(i % 900),
        h('input', { defaultValue: 'v' + i, readOnly: true }))),
    h(Suspense, { fallback: h('i', null, '…') }, h(Late)),
    h('script', { dangerouslySetInnerHTML: { __html: 'var a="я"' } }))
const chunks = []
const sink = new Writable({
  write(chunk, _encoding, done) { chunks.push(chunk); done() },
  final(done) {
    const page = Buffer.concat(chunks).toString('utf8')
    process.stdout.write(JSON.stringify({
      same: page === renderToString(tree()),
      length: page.length,
      replacement: page.includes('\uFFFD'),
      late: page.includes('поздно ✓ 𝄞'),
      version: require('react-dom/package.json').version,
    }))
    done()
  },
})
const { pipe } = renderToPipeableStream(tree(), { onAllReady: () => pipe(sink) })
`

test('the streaming renderer sends exactly what React renders to a string, Cyrillic intact', () => {
  const out = execFileSync(process.execPath, ['-e', program], {
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
  })
  expect(JSON.parse(out)).toEqual({
    same: true,
    length: expect.any(Number) as number,
    replacement: false,
    late: true,
    version: expect.stringMatching(/^19\./) as string,
  })
  expect((JSON.parse(out) as { length: number }).length).toBeGreaterThan(500_000)
})
