import { randomBytes, randomInt } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import type { Engine } from '../../engine/index.ts'
import { ownKeysOfRoute, ownValuesOfRoute } from '~/models/own-values.server.ts'
import { log } from '~/services/logger.server.ts'
import {
  currentUserOf,
  optionalUserIdFromCookieHeader,
  type CurrentUser,
} from '~/services/session.server.ts'
import { escapeHtml } from '~/utils/html.ts'
import type { OwnTemplateHoles, OwnValues } from '~/utils/own-template.tsx'

// Pages that signed-in people share (decision 022). The home page, /auctions and an auction
// page show a signed-in person the same as everyone else apart from a few parts of their own:
// their name and bid balance in the header, and whether each bid button is theirs to press.
// Such a page is rendered once per second per address, language, cookie choices and role, with
// a stand-in user, and each person's copy is that render with their own parts filled in: their
// values in the page's markup and in the data the browser hydrates from. The markup and data
// are byte for byte what rendering the page for that person would give (tests/e2e/own-pages).

/** How long a shared render serves (as for visitors who are not logged in, decision 019). */
export const OWN_TEMPLATE_MS = 1_000
const MAX_TEMPLATES = 200

/** The production server's Remix request handler. */
export type RenderPage = (request: Request, context: AppLoadContext) => Promise<Response>

/** What a shared render is told, through the load context (loaders) and React context (markup). */
export type OwnTemplate = {
  /** The stand-in user the page is rendered for. */
  user: CurrentUser
  holes: OwnTemplateHoles
  /** Filled in by the render: the routes' data and the page's route. */
  rendered?: { loaderData: Record<string, unknown>; routeId: string }
}

export type OwnPageRequest = {
  /** The page's whole address. */
  url: string
  /** Everything else that makes the page what it is besides the person (host, language, cookie choices). */
  key: string
  /** The request's headers for the shared render: no session, toast or onboarding cookie. */
  sharedHeaders: Record<string, string>
  /** The request's own Cookie header (the session). */
  cookie: string
  nonce: string
}

export type OwnPageAnswer = { status: number; headers: Array<[string, string]>; body: string }

/** A person's values (the user, the route's own keys) and their nonce. */
export type Fill = { own: OwnValues & Record<string, unknown>; nonce: string }
export type Filler = (fill: Fill) => string

type Template = {
  routeId: string
  /** The page route's data as rendered (the auctions it shows, say). */
  routeData: Record<string, unknown>
  headers: Array<[string, string]>
  /** Markup between the person's parts, and what fills each part: literal, filler, literal... */
  literals: string[]
  fillers: Filler[]
}

export function ownPages({ engine, render }: { engine: Engine; render: RenderPage }) {
  // A page that cannot be shared is kept as such (null) for a second too: rendered for each
  // person meanwhile, asked again after.
  const templates = new Map<string, { at: number; template: Template | null }>()
  const underway = new Map<string, Promise<Template | null>>()
  const fresh = (kept: { at: number }) => Date.now() - kept.at < OWN_TEMPLATE_MS

  const templateFor = (request: OwnPageRequest, role: CurrentUser['role']) => {
    const key = `${request.key}\n${role}`
    const kept = templates.get(key)
    if (kept && fresh(kept)) return Promise.resolve(kept.template)
    let made = underway.get(key)
    if (!made) {
      const at = Date.now()
      made = makeTemplate(render, engine, request, role)
        .catch((error: unknown) => {
          log.warn('a shared page could not be rendered', { error: String(error) })
          return null
        })
        .then((template) => {
          underway.delete(key)
          templates.delete(key)
          templates.set(key, { at, template })
          // The oldest first: those past their second, then any beyond the most kept.
          for (const [oldest, other] of templates) {
            if (fresh(other) && templates.size <= MAX_TEMPLATES) break
            templates.delete(oldest)
          }
          return template
        })
      underway.set(key, made)
    }
    return made
  }

  /** The page for the person whose session the cookie names, or null to render it as usual. */
  return async function ownPage(request: OwnPageRequest): Promise<OwnPageAnswer | null> {
    const userId = await optionalUserIdFromCookieHeader(request.cookie)
    if (!userId) return null
    const user = await currentUserOf(userId, engine)
    if (!user) return null
    const template = await templateFor(request, user.role)
    if (!template) return null
    const routeValues = await ownValuesOfRoute(template.routeId, user, template.routeData, engine)
    if (!routeValues) return null
    const fill: Fill = { own: { user, ...routeValues }, nonce: request.nonce }
    return { status: 200, headers: template.headers, body: fillParts(template, fill) }
  }
}

const OPEN = '\uE000'
const CLOSE = '\uE001'
const STRING_FIELDS = ['id', 'username', 'email', 'firstName', 'lastName'] as const
const NUMBER_FIELDS = ['bidBalance', 'wonAuctions'] as const

async function makeTemplate(
  render: RenderPage,
  engine: Engine,
  request: OwnPageRequest,
  role: CurrentUser['role'],
): Promise<Template | null> {
  const tag = randomBytes(6).toString('hex')
  const fillers = new Map<string, Filler>()
  // The stand-in user: marks where each of the person's values lands.
  const user = { role } as Record<string, unknown>
  for (const field of STRING_FIELDS) {
    const mark = `${OPEN}${tag}:${field}${CLOSE}`
    user[field] = mark
    fillers.set(mark, ({ own }) => escapeHtml(String(own.user[field] ?? '')))
  }
  for (const field of NUMBER_FIELDS) {
    // Sixteen digits no page shows otherwise; fields differ so that none shares another's place.
    const mark = 1e15 + randomInt(2 ** 47)
    user[field] = mark
    fillers.set(String(mark), ({ own }) => String(own.user[field]))
  }
  let holeCount = 0
  const hole = (filler: Filler) => {
    const mark = `${OPEN}${tag}:hole${holeCount++}${CLOSE}`
    fillers.set(mark, filler)
    return mark
  }
  const holes: OwnTemplateHoles = {
    text: (text) => hole(({ own }) => escapeHtml(text(own))),
    choice: (pick, draw) => {
      const drawn = new Map<string, string>()
      return hole(({ own }) => {
        const variant = pick(own)
        let markup = drawn.get(variant)
        if (markup === undefined) {
          markup = renderToString(draw(variant) as ReactElement)
          drawn.set(variant, markup)
        }
        return markup
      })
    },
  }
  const nonce = randomBytes(16).toString('base64')
  fillers.set(` nonce="${nonce}"`, (fill) => ` nonce="${fill.nonce}"`)
  const ownTemplate: OwnTemplate = { user: user as CurrentUser, holes }
  const response = await render(new Request(request.url, { headers: request.sharedHeaders }), {
    cspNonce: nonce,
    clientIp: '',
    requestId: `shared-${tag}`,
    engine,
    ownTemplate,
  })
  const type = response.headers.get('content-type') ?? ''
  if (
    response.status !== 200 ||
    !type.startsWith('text/html') ||
    response.headers.has('set-cookie') ||
    !ownTemplate.rendered
  ) {
    await response.body?.cancel()
    return null
  }
  const html = await response.text()
  const { routeId, loaderData } = ownTemplate.rendered
  const parts = markedParts(html, routeId, fillers)
  if (!parts) return null
  return {
    routeId,
    routeData: (loaderData[routeId] ?? {}) as Record<string, unknown>,
    headers: [...response.headers].filter(
      ([name]) => !['content-length', 'content-security-policy'].includes(name),
    ),
    ...parts,
  }
}

/**
 * A shared render cut at its marks: the markup between them, and what fills each (`marks`
 * names the stand-in's values, the holes and the nonce; the page's data is added). Null when
 * some mark of the stand-in would be left in the page or its data.
 */
export function markedParts(html: string, routeId: string, marks: Map<string, Filler>) {
  const marked = splitData(html, routeId, marks)
  if (!marked) return null
  const { literals, fillers } = splitMarks(marked, marks)
  return literals ? { literals, fillers } : null
}

/** A person's copy of a shared render. */
export function fillParts(parts: Pick<Template, 'literals' | 'fillers'>, fill: Fill): string {
  let body = parts.literals[0]!
  for (let i = 0; i < parts.fillers.length; i++)
    body += parts.fillers[i]!(fill) + parts.literals[i + 1]!
  return body
}

const ENQUEUE = 'window.__remixContext.streamController.enqueue('
const DATA_MARK = `${OPEN}data${CLOSE}`

/**
 * The data the browser hydrates from, as a filler: the shared render's turbo-stream with the
 * person's values (the root's `user`, the page route's own keys) written in place of the
 * stand-in's. Null when the page's data is not of the one-piece kind this understands or
 * would still carry a stand-in value somewhere else.
 */
function splitData(html: string, routeId: string, marks: Map<string, Filler>): string | null {
  const at = html.indexOf(ENQUEUE)
  if (at < 0 || html.indexOf(ENQUEUE, at + 1) >= 0) return null
  const end = html.indexOf(');</script>', at)
  if (end < 0) return null
  const text = JSON.parse(html.slice(at + ENQUEUE.length, end)) as string
  if (!text.endsWith('\n') || text.indexOf('\n') !== text.length - 1) return null
  const entries = JSON.parse(text.slice(0, -1)) as unknown[]

  const objectOf = (index: number) => {
    const entry = entries[index]
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return null
    return Object.entries(entry as Record<string, number>).map(
      ([key, value]) => [Number(key.slice(1)), value] as [number, number],
    )
  }
  const field = (pairs: Array<[number, number]> | null, name: string) =>
    pairs?.find(([key]) => entries[key] === name)?.[1]

  // Where each route's data object is, and which of its keys are the person's.
  const ownKeys: Record<string, readonly string[]> = {
    root: ['user'],
    [routeId]: ownKeysOfRoute(routeId),
  }
  const loaderDataIndex = field(objectOf(0), 'loaderData')
  if (loaderDataIndex === undefined) return null
  const routes = objectOf(loaderDataIndex)
  const rewritten: Array<{
    index: number
    pairs: Array<[number, number]>
    own: Map<number, string>
  }> = []
  for (const [route, keys] of Object.entries(ownKeys)) {
    if (keys.length === 0) continue
    const index = field(routes, route)
    const pairs = index === undefined ? null : objectOf(index)
    if (index === undefined || !pairs) return null
    const own = new Map<number, string>()
    for (const key of keys) {
      const pair = pairs.find(([k]) => entries[k] === key)
      if (!pair) return null
      own.set(pair[0], key)
    }
    rewritten.push({ index, pairs, own })
  }
  rewritten.sort((a, b) => a.index - b.index)

  // Nothing the browser reads may hold a stand-in value outside the person's own keys.
  const numbers = new Set([...marks.keys()].filter((mark) => /^\d+$/.test(mark)).map(Number))
  // The walk follows every reference except a rewritten object's own keys' values (a value may
  // still be reached another way: `false` is one entry for every false in the page).
  const ownKeysAt = new Map(rewritten.map(({ index, own }) => [index, own]))
  const seen = new Set<number>()
  const stack = [0]
  while (stack.length > 0) {
    const index = stack.pop()!
    if (index < 0 || seen.has(index)) continue
    seen.add(index)
    const entry = entries[index]
    if (typeof entry === 'string' && entry.includes(OPEN)) return null
    if (typeof entry === 'number' && numbers.has(entry)) return null
    if (Array.isArray(entry)) {
      if (typeof entry[0] === 'string') {
        // Typed values: a date is a leaf; anything else (promises, maps…) is not expected here.
        if (entry[0] !== 'D') return null
      } else stack.push(...(entry as number[]))
    } else if (entry && typeof entry === 'object') {
      const own = ownKeysAt.get(index)
      for (const [key, value] of Object.entries(entry as Record<string, number>)) {
        const keyIndex = Number(key.slice(1))
        stack.push(keyIndex)
        if (!own?.has(keyIndex)) stack.push(value)
      }
    }
  }

  // Entries only the stand-in's values use are left out (a 0 keeps the places of the rest);
  // strings the browser reads anyway are reused for the person's values.
  const stringIndexes = new Map<string, number>()
  entries.forEach((entry, index) => {
    if (typeof entry === 'string' && seen.has(index) && !stringIndexes.has(entry))
      stringIndexes.set(entry, index)
  })
  // The unchanged runs of entries (with the commas around the rewritten ones), escaped once as
  // they stand in the page.
  const runs: string[] = []
  const rewrittenAt = new Set(rewritten.map(({ index }) => index))
  let run = ''
  entries.forEach((entry, index) => {
    const comma = index > 0 ? ',' : ''
    if (rewrittenAt.has(index)) {
      runs.push(escapeInScript(run + comma))
      run = ''
    } else run += comma + (seen.has(index) ? JSON.stringify(entry) : '0')
  })
  runs.push(escapeInScript(run))
  const open = `${ENQUEUE}"${escapeInScript('[')}`
  const payload: Filler = ({ own: values }) => {
    const appended: string[] = []
    const ref = refMaker(entries.length, appended, stringIndexes)
    let out = open + runs[0]!
    rewritten.forEach(({ pairs, own: keys }, i) => {
      const object = `{${pairs
        .map(([k, v]) => `"_${k}":${keys.has(k) ? ref(values[keys.get(k)!]) : v}`)
        .join(',')}}`
      out += escapeInScript(object) + runs[i + 1]!
    })
    if (appended.length > 0) out += escapeInScript(`,${appended.join(',')}`)
    return `${out}${escapeInScript(']\n')}"`
  }
  marks.set(DATA_MARK, payload)
  return html.slice(0, at) + DATA_MARK + html.slice(end)
}

/**
 * Encodes a value as turbo-stream entries appended after the page's own (`base` on), reusing
 * the page's entries for strings it already holds; returns the value's reference.
 */
function refMaker(base: number, appended: string[], strings: Map<string, number>) {
  const ref = (value: unknown): number => {
    if (value === undefined) return -7
    if (value === null) return -5
    if (typeof value === 'number') {
      if (Number.isNaN(value)) return -2
      if (value === Infinity) return -6
      if (value === -Infinity) return -3
      if (Object.is(value, -0)) return -4
    }
    if (typeof value === 'string') {
      const known = strings.get(value)
      if (known !== undefined) return known
    }
    const index = base + appended.length
    appended.push('')
    let text: string
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      text = JSON.stringify(value)
    else if (value instanceof Date) text = `["D",${value.getTime()}]`
    else if (Array.isArray(value)) text = `[${value.map(ref).join(',')}]`
    else if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
      text = `{${Object.entries(value)
        .map(([key, item]) => `"_${ref(key)}":${ref(item)}`)
        .join(',')}}`
    else throw new Error(`cannot encode ${typeof value}`)
    appended[index - base] = text
    return index
  }
  return ref
}

/** Cuts the markup at each mark (the stand-in's values, holes, the nonce, the data). */
function splitMarks(
  html: string,
  marks: Map<string, Filler>,
): { literals: string[] | null; fillers: Filler[] } {
  const pattern = new RegExp(
    [...marks.keys()]
      .filter((mark) => !mark.startsWith(OPEN))
      .map((mark) => mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .concat(`${OPEN}[^${CLOSE}]*${CLOSE}`)
      .join('|'),
    'g',
  )
  const literals: string[] = []
  const fillers: Filler[] = []
  let from = 0
  for (const match of html.matchAll(pattern)) {
    const filler = marks.get(match[0])
    // A mark nobody knows: some part of the page is the stand-in's and would not be filled.
    if (!filler) return { literals: null, fillers }
    literals.push(html.slice(from, match.index))
    fillers.push(filler)
    from = match.index! + match[0].length
  }
  literals.push(html.slice(from))
  return { literals, fillers }
}

/** A text as it stands inside the page's data script: a JSON string's inside, made safe for HTML (Remix's escaping). */
function escapeInScript(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/[&><\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]!)
}
const SCRIPT_ESCAPES: Record<string, string> = {
  '&': '\\u0026',
  '>': '\\u003e',
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}
