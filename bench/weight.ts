// What a page costs to download: the HTML, the JavaScript and the CSS it loads (bytes on the
// wire with gzip, as the server sends them), for the home page and a live auction page. And
// whether the auction page is usable without any of the JavaScript: a logged-in person's plain
// form post of the bid form (its action and hidden inputs read from the HTML) places a bid.
// `npm run bench:weight [-- --auctions 3 --upcoming 6]` (what the home page lists).
import http from 'node:http'
import { gunzipSync, gzipSync } from 'node:zlib'
import path from 'node:path'
import { root } from '../tests/setup/stack.ts'
import { startSite } from './site.ts'
import { buildWithSourceMaps, whereBytesGo } from './weight-modules.ts'
import { benchArgs, fmt } from './support.ts'

type Fetched = { status: number; headers: http.IncomingHttpHeaders; wire: number; text: string }

/** A GET or POST as a browser sends it, asking for gzip; `wire` is the body's size as sent. */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const call = http.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: { 'Accept-Encoding': 'gzip', 'Accept-Language': 'en', ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const raw = Buffer.concat(chunks)
          const gzip = response.headers['content-encoding'] === 'gzip'
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            wire: raw.length,
            text: (gzip ? gunzipSync(raw) : raw).toString('utf8'),
          })
        })
      },
    )
    call.on('error', reject)
    call.end(options.body)
  })
}

const unescape = (value: string) =>
  value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")

/** The attributes of one tag (`<input type="hidden" name="intent" value="bid"/>`). */
function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of tag.matchAll(/([\w:-]+)(?:=(?:"([^"]*)"|'([^']*)'))?/g)) {
    if (match.index === 0) continue // the tag's name
    found.set(match[1]!.toLowerCase(), unescape(match[2] ?? match[3] ?? ''))
  }
  return found
}

/** The page's resources as its HTML lists them. */
function resourcesOf(html: string) {
  const scripts = new Set<string>()
  const styles = new Set<string>()
  const inline: string[] = []
  const inlineStyles: string[] = []
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi))
    inlineStyles.push(match[1]!)
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = attributes(`<script ${match[1]!}>`)
    const src = attrs.get('src')
    if (src) scripts.add(src)
    else if (match[2]!.trim()) {
      inline.push(match[2]!)
      // Remix's module script imports the entry and route modules by URL.
      for (const imported of match[2]!.matchAll(/import\s*(?:[^'"]*?from\s*)?["']([^"']+)["']/g))
        scripts.add(imported[1]!)
    }
  }
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const attrs = attributes(match[0])
    const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/)
    const href = attrs.get('href')
    if (!href) continue
    if (rel.includes('stylesheet')) styles.add(href)
    if (rel.includes('modulepreload')) scripts.add(href)
  }
  return { scripts, styles, inline, inlineStyles }
}

/** Sums a kind of resource; modules are followed through their static imports. */
async function download(base: string, urls: Set<string>, followImports: boolean) {
  const seen = new Set<string>()
  const queue = [...urls].map((url) => new URL(url, base).href)
  let wire = 0
  let raw = 0
  const sizes: Array<{ name: string; wire: number }> = []
  while (queue.length > 0) {
    const url = queue.shift()!
    if (seen.has(url) || new URL(url).origin !== new URL(base).origin) continue
    seen.add(url)
    const fetched = await request(url)
    if (fetched.status !== 200) throw new Error(`${url}: ${fetched.status}`)
    wire += fetched.wire
    raw += Buffer.byteLength(fetched.text)
    sizes.push({ name: new URL(url).pathname.split('/').pop()!, wire: fetched.wire })
    if (!followImports) continue
    for (const match of fetched.text.matchAll(
      /(?:import|export)\s*(?:[\w${},*\s]*?from\s*)?["']([^"']+\.js)["']/g,
    ))
      queue.push(new URL(match[1]!, url).href)
  }
  sizes.sort((a, b) => b.wire - a.wire)
  return {
    files: seen.size,
    names: [...seen].map((url) => new URL(url).pathname.split('/').pop()!),
    wire,
    raw,
    largest: sizes.slice(0, 4),
  }
}

const kib = (bytes: number) => `${fmt(bytes / 1024, 1)} KiB`

const { numbers } = benchArgs({
  auctions: 3,
  upcoming: 6,
})
// The same build again with source maps, to say where each page's script bytes go.
buildWithSourceMaps()
const site = await startSite({
  name: 'weight',
  people: 1,
  auctions: numbers.auctions,
  upcoming: numbers.upcoming,
})
const lines: string[] = []
try {
  const base = site.origins[0]!
  const person = site.people[0]!
  const auction = site.auctions[0]!
  const pages = [
    { name: '/', path: '/' },
    {
      name: '/auction/{slug}',
      path: `/auction/${auction.slug}`,
      // docs/performance.md shows where an auction page's bytes go.
      picture: path.join(root, 'docs/images/weight-auction-page.png'),
    },
  ]
  const modules: string[] = []
  const label = (text: string) => text.padEnd(18)
  lines.push(
    `bytes on the wire with gzip (raw in brackets), an anonymous first visit, nothing cached; ${site.auctions.length} live auctions, ${numbers.upcoming} upcoming`,
    'goal: the auction page loads <= 150 KiB of JavaScript (decision 035); chunks a page imports later',
    '(socket.io-client once hydrated, the language texts, a dialog when opened) are not counted',
    '',
    `${label('')}${'HTML'.padEnd(24)}${'JavaScript'.padEnd(34)}CSS`,
  )
  for (const page of pages) {
    const html = await request(`${base}${page.path}`)
    if (html.status !== 200) throw new Error(`${page.path}: ${html.status}`)
    const { scripts, styles, inline, inlineStyles } = resourcesOf(html.text)
    const js = await download(base, scripts, true)
    const css = await download(base, styles, false)
    const inlineRaw = inline.join('')
    const stylesRaw = inlineStyles.join('')
    const column = (text: string, width: number) => text.padEnd(width)
    lines.push(
      `${label(page.name)}${column(`${kib(html.wire)} (${kib(Buffer.byteLength(html.text))})`, 24)}${column(`${kib(js.wire)} in ${js.files} files (${kib(js.raw)})`, 34)}${kib(css.wire)} in ${css.files} (${kib(css.raw)})`,
      `${label('')}of the HTML, inline scripts: ${kib(Buffer.byteLength(inlineRaw))} raw, ~${kib(gzipSync(inlineRaw).length)} gzipped alone; the style sheet: ${kib(Buffer.byteLength(stylesRaw))} raw, ~${kib(gzipSync(stylesRaw).length)} gzipped alone`,
      `${label('')}largest scripts: ${js.largest.map((file) => `${file.name} ${kib(file.wire)}`).join(', ')}`,
    )
    modules.push(
      '',
      `where ${page.name}'s scripts go:`,
      ...(await whereBytesGo(js.names, page.picture)).map((line) => `  ${line}`),
    )
  }
  lines.push(...modules)

  // Without JavaScript: the logged-in page's bid form, posted as a browser would post it.
  const cookie = { Cookie: person.cookie }
  const state = async () => {
    const [me, lot] = await Promise.all([
      request(`${base}/api/auth/me`, { headers: cookie }),
      request(`${base}/api/auctions/slug/${auction.slug}`),
    ])
    return {
      balance: (JSON.parse(me.text) as { user: { bidBalance: number } }).user.bidBalance,
      price: (JSON.parse(lot.text) as { currentPrice: number }).currentPrice,
    }
  }
  const page = await request(`${base}/auction/${auction.slug}`, { headers: cookie })
  const form = [...page.text.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/gi)]
    .map((match) => match[0])
    .find((text) => /name="intent"[^>]*value="bid"|value="bid"[^>]*name="intent"/.test(text))
  let usable = false
  let detail = 'no bid form in the HTML'
  if (form) {
    const formAttrs = attributes(/<form\b[^>]*>/i.exec(form)![0])
    const fields = new URLSearchParams()
    for (const input of form.matchAll(/<input\b[^>]*>/gi)) {
      const attrs = attributes(input[0])
      if (attrs.get('type') === 'hidden' && attrs.has('name'))
        fields.append(attrs.get('name')!, attrs.get('value') ?? '')
    }
    const action = new URL(formAttrs.get('action') || `/auction/${auction.slug}`, base).href
    const before = await state()
    const posted = await request(action, {
      method: (formAttrs.get('method') ?? 'get').toUpperCase(),
      headers: {
        ...cookie,
        Origin: base,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: fields.toString(),
    })
    const after = await state()
    // The redirect's page, with the toast cookie it set, shows the outcome without JavaScript.
    const toast = (posted.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ')
    const location = posted.headers.location
    const shown = location
      ? await request(new URL(location, base).href, {
          headers: { Cookie: [person.cookie, toast].filter(Boolean).join('; ') },
        })
      : null
    const message = shown && /Bid accepted/.test(shown.text) ? 'shows "Bid accepted"' : 'no message'
    usable =
      after.balance === before.balance - 1 && Math.round((after.price - before.price) * 100) === 1
    detail =
      `POST ${new URL(action).pathname} {${[...fields.keys()].join(', ')}} -> ${posted.status}` +
      `${location ? ` ${location}` : ''}; balance ${before.balance} -> ${after.balance}, price ` +
      `${before.price.toFixed(2)} -> ${after.price.toFixed(2)}; the page after it ${message}`
  }
  lines.push(
    '',
    `usable without JS: ${usable ? 'yes' : 'no'}   (goal yes)`,
    `${label('')}${detail}`,
  )
} finally {
  await site.close()
}
process.stdout.write(['', ...lines, ''].join('\n'))
