import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { base } from './api.ts'

// Form posts to the pages the way a browser without JavaScript sends them (with the site's
// Origin), and what a person then sees: the messages on the answered page, in their language.

export const languages = ['ru', 'en', 'ka', 'ky'] as const
export type Language = (typeof languages)[number]

const localeRoot = path.resolve(import.meta.dirname, '../../app/locales')

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out)
  return out
}

/** Every text of a language (all namespaces); `{{name}}` stands for any inserted value. */
const texts = Object.fromEntries(
  languages.map((language) => {
    const all = readdirSync(path.join(localeRoot, language)).flatMap((file) =>
      strings(JSON.parse(readFileSync(path.join(localeRoot, language, file), 'utf8'))),
    )
    const exact = new Set<string>()
    const patterns: RegExp[] = []
    for (const text of all) {
      const parts = text.trim().split(/\{\{[^}]*\}\}/)
      // A template that is nearly all inserted value would match anything.
      if (parts.join('').replace(/[\s\p{P}]/gu, '').length < 4) continue
      if (parts.length === 1) exact.add(text.trim())
      else {
        const escaped = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        patterns.push(new RegExp(`^${escaped.join('[\\s\\S]+?')}$`))
      }
    }
    return [language, { exact, patterns }]
  }),
) as Record<Language, { exact: Set<string>; patterns: RegExp[] }>

/** A text the interface has in this language (a translation, not a key or another language). */
export function isText(text: string, language: Language) {
  const { exact, patterns } = texts[language]
  return exact.has(text) || patterns.some((pattern) => pattern.test(text))
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) =>
    name[0] === '#'
      ? String.fromCodePoint(
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
        )
      : (entities[name] ?? whole),
  )

/** The text pieces of the element whose start tag begins at `start` (up to its closing tag). */
function elementTexts(html: string, start: number): string[] {
  const name = /^<([a-z0-9]+)/i.exec(html.slice(start))?.[1] ?? 'div'
  const tag = new RegExp(`<(/?)${name}\\b[^>]*?(/?)>`, 'gi')
  tag.lastIndex = start
  let depth = 0
  let end = html.length
  for (let match = tag.exec(html); match; match = tag.exec(html)) {
    if (match[2]) continue
    depth += match[1] ? -1 : 1
    if (depth === 0) {
      end = match.index
      break
    }
  }
  return html
    .slice(start, end)
    .replace(/<svg[\s\S]*?<\/svg>/gi, '')
    .split(/<[^>]*>/)
    .map((piece) => decode(piece).trim())
    .filter((piece) => /\p{L}/u.test(piece))
}

/**
 * The messages a page shows a person: alerts (field and form errors, a flashed error toast),
 * a flashed status toast, and the error or not-found view of a failed request. Each is its text pieces.
 */
export function messagesOf(html: string): string[][] {
  const found: string[][] = []
  const starts =
    /<[a-z0-9]+\b[^>]*(?:role="alert"|class="server-toast|aria-labelledby="(?:error|not-found)-title")[^>]*>/gi
  for (const match of html.matchAll(starts)) {
    const pieces = elementTexts(html, match.index)
    if (pieces.length) found.push(pieces)
  }
  return found
}

/** The messages of a page that are texts of the interface in this language. */
export function messagesIn(html: string, language: Language) {
  return messagesOf(html)
    .flat()
    .filter((text) => isText(text, language))
}

export type Body =
  { form: Record<string, string | string[]> } | { raw: string | Blob | FormData; type?: string }

/**
 * A page's HTML without its texts block (app/i18n/page-texts.tsx), which holds every text of the
 * page's namespaces: what the page shows and the data it carries, for checks that a text or a
 * value is absent.
 */
export const withoutPageTexts = (html: string) =>
  html.replace(/<script id="page-texts"[^>]*>.*?<\/script>/s, '')

export type Answer = {
  status: number
  type: string
  text: string
  location: string | null
  cookies: string[]
}

/** Posts to a page as a browser form would (same-site Origin), without following redirects. */
export async function postPage(
  url: string,
  body: Body | undefined,
  { cookie = '', language = 'ru' }: { cookie?: string; language?: Language } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Origin: base(), 'Accept-Language': language }
  if (cookie) headers.Cookie = cookie
  let payload: BodyInit | undefined
  if (body && 'form' in body) {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(body.form)) {
      for (const one of Array.isArray(value) ? value : [value]) params.append(key, one)
    }
    payload = params.toString()
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
  } else if (body) {
    payload = body.raw
    if (body.type) headers['Content-Type'] = body.type
  }
  const send = () =>
    fetch(`${base()}${url}`, { method: 'POST', headers, body: payload, redirect: 'manual' })
  // A kept-alive connection the server has just closed fails at once; a browser sends again.
  return answerOf(await send().catch(send))
}

/** The cookie header a browser sends next: `cookie` with the answer's cookies set or cleared. */
export function nextCookie(cookie: string, setCookies: string[], keep = (_name: string) => true) {
  const jar = new Map(
    cookie
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const),
  )
  for (const line of setCookies) {
    const pair = line.split(';')[0]!
    const name = pair.slice(0, pair.indexOf('='))
    if (!keep(name)) continue
    const cleared = /max-age=0|expires=thu, 01 jan 1970/i.test(line) || pair.endsWith('=')
    if (cleared) jar.delete(name)
    else jar.set(name, pair)
  }
  return [...jar.values()].join('; ')
}

export type Flash = { type: string; title?: string; description: string }

/** The flash toast an answer sets (a signed cookie: base64 JSON, then a signature). */
export function flashOf(setCookies: string[]): Flash | null {
  for (const line of setCookies) {
    const match = /^(?:__Host-)?toast=([^;]+)/.exec(line)
    if (!match) continue
    const signed = decodeURIComponent(match[1]!)
    const encoded = signed.slice(0, signed.lastIndexOf('.'))
    const data = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Record<
      string,
      Flash | undefined
    >
    return data.__flash_toast__ ?? null
  }
  return null
}

/** Loads a page as the browser would after a redirect. */
export async function getPage(url: string, cookie: string, language: Language) {
  const response = await fetch(new URL(url, base()), {
    headers: { 'Accept-Language': language, ...(cookie ? { Cookie: cookie } : {}) },
    redirect: 'manual',
  })
  return answerOf(response)
}

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    // What the page shows and carries, without its texts block: a text the page does not show
    // is in the block anyway (every text of its namespaces).
    text: withoutPageTexts(await response.text()),
    location: response.headers.get('location'),
    cookies: response.headers.getSetCookie(),
  }
}
