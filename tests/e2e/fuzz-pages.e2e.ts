import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { routeManifest } from '../support/route-manifest.ts'
import { call, newAccount, sessionOf, unique } from './api.ts'
import { createAuction, e2eDatabase } from './auctions.ts'
import {
  flashOf,
  getPage,
  isText,
  languages,
  messagesIn,
  messagesOf,
  nextCookie,
  postPage,
  type Answer,
  type Body,
  type Language,
} from './pages.ts'

// Runs alone: it posts hostile input to the admin settings forms, which every page shows.

// Hostile form posts to every page action (every route module with an `action` outside /api),
// as anonymous, as a user and as an admin, in every interface language: never a 5xx; a refusal
// is a 4xx page or a redirect that shows why, in the visitor's language; and nothing is stored
// from garbage. The JSON API has its own fuzz (fuzz-api.e2e.ts).

const appDir = path.resolve(import.meta.dirname, '../../app')

type Who = 'anon' | 'user' | 'admin'
type Fields = Record<string, string>
/**
 * One form of a page: where it posts, a well-formed body to start from, and what it stores when
 * it succeeds (counted to check that nothing else was stored).
 */
type Form = { url: string; fields: () => Fields; stores?: 'auctions' | 'bots' | 'users' }

/** Values that may pass a form's checks and must still not hurt: each one field at a time. */
const sneaky = [
  'a\u0000b',
  '<script>alert(1)</script>',
  `' OR 1=1; DROP TABLE "User"; --`,
  '\u202E💣 ქართული ̈ﷺ',
  '1e309',
  '-1',
]
/** Values no field takes: all fields at once. */
const garbage = ['', 'x'.repeat(1_000_000), 'NaN', '9'.repeat(400)]

const hostileQuery =
  'redirectTo=%2F%2Fevil.example&page=-1e309&botsPage=NaN&edit=%3Cscript%3E&confirm=delete%3A%27%20OR%201%3D1&tab=%F0%9F%92%A3&status=%27&payment=..%2F..'

let user = { cookie: '', id: '', name: '' }
let admin = ''
let started = new Date()
const auctions = { live: { id: '', slug: '' }, upcoming: { id: '', slug: '' }, edited: { id: '' } }
let victim = { id: '', name: '' }
let paymentId = ''
let settingsBefore: Record<string, unknown> = {}
/** Accounts the test made itself (every other new one came from a registration form). */
const ours = new Set<string>()

async function account() {
  const made = await newAccount()
  ours.add(made.id)
  return made
}

async function adminSession() {
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  expect(login.status).toBe(200)
  return sessionOf(login.cookie)
}

/** The bid action's forms: without JavaScript (naming the page to come back to) and with it. */
const bidForms = (url: string): Form[] => [
  { url, fields: () => ({ intent: 'bid', auctionId: auctions.live.id, redirectTo: '/' }) },
  {
    url,
    fields: () => ({ intent: 'prebid', auctionId: auctions.upcoming.id, redirectTo: '/auctions' }),
  },
  { url, fields: () => ({ intent: 'bid', auctionId: auctions.live.id }) },
]

const auctionFields = () => ({
  title: `Лот ${unique()}`,
  description: 'Описание',
  imageUrl: '/images/phone.jpg',
  retailPrice: '1500',
  startTime: '2099-01-01T10:00',
  condition: 'new',
  category: 'phones',
  estimatedValue: '1600',
  featured: 'on',
})

/** Every page action and its forms; a route with an action that is missing here fails the test. */
/** The admin's edit of the victim's account, well formed. */
const victimEdit = () => ({
  intent: 'edit',
  id: victim.id,
  username: victim.name,
  email: `${victim.name}@mail.kg`,
  firstName: 'Жертва',
  lastName: '',
  phone: '',
  bidBalanceDelta: '+5',
  bidBalanceReason: 'Подарок',
  role: 'user',
})

const pageActions: Record<string, { admin?: boolean; forms: () => Form[] }> = {
  '$.tsx': { forms: () => [{ url: '/no-such-page', fields: () => ({ intent: 'x' }) }] },
  'auction/resources.bid.ts': { forms: () => bidForms('/resources/bid') },
  'auction/resources.watch.ts': {
    forms: () => [
      {
        url: '/resources/watch',
        fields: () => ({ auctionId: auctions.upcoming.id, watching: '1', redirectTo: '/auctions' }),
      },
      { url: '/resources/watch', fields: () => ({ auctionId: auctions.live.id, watching: '0' }) },
    ],
  },
  'account/profile_.telegram.ts': {
    forms: () => [{ url: '/profile/telegram', fields: () => ({ intent: 'unlink' }) }],
  },
  'auction/auction.$slug.tsx': {
    forms: () => {
      const url = `/auction/${auctions.live.slug}`
      // Bids go to the bid action (resources.bid.ts); one here checks an old page's post is refused.
      return [
        { url, fields: () => ({ intent: 'bid' }) },
        { url, fields: () => ({ intent: 'autobid', bids: '3' }) },
        { url, fields: () => ({ intent: 'autobidStop' }) },
        { url, fields: () => ({ intent: 'buyNow' }) },
        { url: '/auction/no-such-auction', fields: () => ({ intent: 'bid' }) },
      ]
    },
  },
  'account/login.tsx': {
    forms: () => [
      {
        url: '/login',
        fields: () => ({ intent: 'login', username: 'nobody-here', password: 'wrong-password' }),
      },
      {
        url: '/login?tab=register',
        fields: () => {
          const name = unique()
          return {
            intent: 'register',
            username: name,
            email: `${name}@mail.kg`,
            password: 'secret12',
            confirmPassword: 'secret12',
            redirectTo: '/',
          }
        },
        stores: 'users',
      },
    ],
  },
  'account/logout.tsx': { forms: () => [{ url: '/logout', fields: () => ({}) }] },
  'set-language.tsx': {
    forms: () => [{ url: '/set-language', fields: () => ({ lng: 'ru', redirectTo: '/auctions' }) }],
  },
  'cookie-consent.tsx': {
    forms: () => [
      {
        url: '/cookie-consent',
        fields: () => ({ choice: 'custom', analytics: 'on', functional: 'on', redirectTo: '/' }),
      },
    ],
  },
  'account/complete-profile.tsx': {
    forms: () => [
      {
        url: '/complete-profile',
        fields: () => ({
          firstName: 'Айбек',
          lastName: 'Осмонов',
          phone: `+996${String(Date.now()).slice(-9)}`,
          dateOfBirth: '1990-05-17',
          gender: 'male',
          redirectTo: '/',
        }),
      },
    ],
  },
  'account/profile.tsx': {
    forms: () => [
      {
        url: '/profile',
        fields: () => ({
          firstName: 'Айбек',
          lastName: 'Осмонов',
          email: `${user.name}@mail.kg`,
          phone: '+996',
          dateOfBirth: '',
          gender: 'other',
        }),
      },
      {
        url: '/profile',
        fields: () => ({
          intent: 'delivery',
          orderId: 'no-such-order',
          deliveryMethod: 'courier_bishkek',
          address: 'Бишкек, ул. Киевская 1',
          phone: '+996555123456',
        }),
      },
    ],
  },
  'account/topup.tsx': {
    forms: () => [{ url: '/topup', fields: () => ({ intent: 'buy', packageId: 'bids-50' }) }],
  },
  'account/topup_.order.$id.tsx': {
    forms: () => [{ url: '/topup/order/no-such-order', fields: () => ({ intent: 'pay' }) }],
  },
  'account/payments.sandbox.$id.tsx': {
    forms: () => [
      { url: `/payments/sandbox/${paymentId}`, fields: () => ({ intent: 'decline' }) },
      { url: '/payments/sandbox/no-such-payment', fields: () => ({ intent: 'pay' }) },
    ],
  },
  'admin/admin._dashboard.tsx': {
    admin: true,
    // Forms of the dashboard before its dialogs had routes of their own: all answered 400.
    forms: () => [
      { url: '/admin?index', fields: () => ({ intent: 'create', ...auctionFields() }) },
      { url: '/admin', fields: () => ({ intent: 'deleteBot', id: 'no-such' }) },
    ],
  },
  'admin/admin._dashboard.auctions.new.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/auctions/new',
        fields: () => ({ ...auctionFields(), isBidPackage: '', packageBids: '' }),
        stores: 'auctions',
      },
    ],
  },
  'admin/admin._dashboard.auctions.$id.edit.tsx': {
    admin: true,
    forms: () => [
      { url: `/admin/auctions/${auctions.edited.id}/edit?page=2`, fields: auctionFields },
      { url: '/admin/auctions/no-such/edit', fields: auctionFields },
    ],
  },
  'admin/admin._dashboard.auctions.$id.assign.tsx': {
    admin: true,
    forms: () => [
      {
        url: `/admin/auctions/${auctions.edited.id}/assign`,
        fields: () => ({ botId: 'no-such-bot', bidLimit: '3' }),
      },
    ],
  },
  'admin/admin._dashboard.auctions.$id.unassign.tsx': {
    admin: true,
    forms: () => [
      {
        url: `/admin/auctions/${auctions.edited.id}/unassign`,
        fields: () => ({ botId: 'no-such-bot' }),
      },
    ],
  },
  'admin/admin._dashboard.auctions.$id.end.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/auctions/no-such/end', fields: () => ({ confirm: 'yes' }) }],
  },
  'admin/admin._dashboard.auctions.$id.delete.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/auctions/no-such/delete', fields: () => ({ confirm: 'yes' }) }],
  },
  'admin/admin._dashboard.bots.settings.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/bots/settings',
        fields: () => ({ minDelay: '5', maxDelay: '6', activeBots: '0' }),
      },
    ],
  },
  'admin/admin._dashboard.bots.new.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/bots/new',
        fields: () => ({ firstName: 'Фазз', lastName: 'Бот' }),
        stores: 'bots',
      },
    ],
  },
  'admin/admin._dashboard.bots.$id.delete.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/bots/no-such/delete', fields: () => ({ confirm: 'yes' }) }],
  },
  'admin/admin.users.$id.edit.tsx': {
    admin: true,
    forms: () => [
      {
        url: `/admin/users/${victim.id}/edit`,
        fields: victimEdit,
      },
    ],
  },
  'admin/admin.users.$id.delete.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/users/no-such/delete', fields: () => ({ confirm: 'yes' }) }],
  },
  'admin/admin.orders.$id.refund.tsx': {
    admin: true,
    forms: () => [
      { url: '/admin/orders/no-such/refund', fields: () => ({ reason: 'Сумма не та' }) },
    ],
  },
  'admin/admin.payments.$id.refund.tsx': {
    admin: true,
    forms: () => [
      { url: '/admin/payments/no-such/refund', fields: () => ({ reason: 'Сумма не та' }) },
    ],
  },
  'admin/admin.finished-auctions.$id.delete.tsx': {
    admin: true,
    forms: () => [
      { url: '/admin/finished-auctions/no-such/delete', fields: () => ({ confirm: 'yes' }) },
    ],
  },
  // Posts of pages opened before the dialogs had routes of their own: refused, never a 5xx.
  'admin/admin.users.tsx': {
    admin: true,
    forms: () => [
      {
        url: `/admin/users?edit=${victim.id}`,
        fields: victimEdit,
      },
      {
        url: '/admin/users?confirm=delete:no-such',
        fields: () => ({ intent: 'delete', id: 'no-such' }),
      },
    ],
  },
  'admin/admin.orders.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/orders', fields: () => ({ intent: 'paid', id: 'no-such' }) }],
  },
  'admin/admin.finished-auctions.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/finished-auctions?confirm=delete:no-such',
        fields: () => ({ intent: 'delete', id: 'no-such' }),
      },
    ],
  },
  'admin/admin.settings.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/settings',
        fields: () => ({
          intent: 'save',
          ...Object.fromEntries(
            Object.entries(settingsBefore).map(([key, value]) => [key, String(value ?? '')]),
          ),
          discloseHouseBids: settingsBefore.discloseHouseBids ? 'on' : '',
        }),
      },
    ],
  },
}

/** The same form, broken every way a client can break it. */
function bodies(fields: Fields): Array<{ name: string; body: Body | undefined; query?: string }> {
  const encoded = new URLSearchParams(fields).toString()
  const form = 'application/x-www-form-urlencoded'
  const keep = (change: (key: string, value: string) => Array<[string, string]>) =>
    Object.entries(fields).flatMap(([key, value]) =>
      key === 'intent' ? [[key, value] as [string, string]] : change(key, value),
    )
  const files = new FormData()
  for (const [key, value] of Object.entries(fields)) {
    files.append(
      key,
      new Blob([value, '\u0000\u00ff'], { type: 'application/x-msdownload' }),
      '../../a.exe',
    )
  }
  const broken = keep((key) => [[key, '']])
    .map(([key, value]) => (value ? `${key}=${encodeURIComponent(value)}` : `${key}=`))
    .join('&')
  return [
    { name: 'no body', body: undefined },
    { name: 'empty form', body: { form: {} } },
    { name: 'JSON', body: { raw: JSON.stringify(fields), type: 'application/json' } },
    { name: 'JSON as a form', body: { raw: JSON.stringify(fields), type: form } },
    { name: 'text/plain', body: { raw: encoded, type: 'text/plain' } },
    {
      name: 'XML',
      body: {
        raw: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
        type: 'application/xml',
      },
    },
    {
      name: '10k fields',
      body: {
        form: {
          ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, `${i}`])),
          ...fields,
        },
      },
    },
    {
      name: 'repeated keys',
      body: { form: Object.fromEntries(keep((k, v) => [[k, [v, '-1', '<b>x</b>'] as never]])) },
    },
    {
      name: 'nested keys',
      body: {
        form: Object.fromEntries(
          keep((k, v) => [
            [`${k}[0]`, v],
            [`${k}[1]`, v],
            [`${k}.__proto__.role`, 'admin'],
          ]),
        ),
      },
    },
    { name: 'files', body: { raw: files } },
    {
      name: 'multipart without a boundary',
      body: {
        raw: `--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\nx\r\n--b--`,
        type: 'multipart/form-data',
      },
    },
    {
      name: 'broken multipart',
      body: { raw: '--zzz\r\nnonsense', type: 'multipart/form-data; boundary=zzz' },
    },
    { name: 'bad %-escapes', body: { raw: `${broken}&x=%ZZ%&y=%E0%A4%A&${encoded}`, type: form } },
    {
      name: 'invalid UTF-8',
      body: {
        raw: new Blob(
          Object.entries(fields).map(([key, value]) =>
            Buffer.concat([
              Buffer.from(`${key}=`),
              key === 'intent' ? Buffer.from(value) : Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0]),
              Buffer.from('&'),
            ]),
          ),
        ),
        type: `${form}; charset=utf-8`,
      },
    },
    { name: 'unknown intent', body: { form: { ...fields, intent: '<script>x</script>' } } },
    { name: 'hostile query', body: { form: fields }, query: hostileQuery },
    { name: 'query with %-garbage', body: { form: fields }, query: 'page=%E0%A4%A&x=%00' },
  ]
}

/** The same form with hostile values: one field at a time, or in every field at once. */
function mutations(fields: Fields) {
  const named = (name: string, form: Fields) => ({
    name,
    body: { form } as Body,
    query: undefined as string | undefined,
  })
  const show = (value: string) =>
    JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value)
  const keys = Object.keys(fields).filter((key) => key !== 'intent')
  return [
    ...keys.flatMap((key) =>
      sneaky.map((value) => named(`${key}=${show(value)}`, { ...fields, [key]: value })),
    ),
    ...garbage.map((value) =>
      named(`all=${show(value)}`, {
        ...fields,
        ...Object.fromEntries(keys.map((key) => [key, value])),
      }),
    ),
  ]
}

/** Follows redirects as a browser does, carrying the answer's cookies (not the language). */
async function follow(answer: Answer, cookie: string, language: Language) {
  let jar = nextCookie(cookie, answer.cookies, (name) => name !== 'lng')
  let to = answer.location ?? '/'
  for (let hop = 0; hop < 4; hop++) {
    const page = await getPage(to, jar, language)
    const again = page.status >= 300 && page.status < 400 ? page.location : null
    if (!again) return page
    jar = nextCookie(jar, page.cookies, (name) => name !== 'lng')
    to = again
  }
  throw new Error(`too many redirects from ${answer.location}`)
}

/** The refusals already read on the page they redirect to, by cookie, page, language, text. */
const shownAlready = new Set<string>()

/** What is wrong with an answer a person gets, or null. */
async function problemWith(answer: Answer, cookie: string, language: Language) {
  if (answer.status >= 500) return `${answer.status} ${answer.text.slice(0, 120)}`
  if (answer.status >= 300 && answer.status < 400) {
    const to = answer.location ?? ''
    if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) {
      return `redirect off the site: ${to}`
    }
    const flash = flashOf(answer.cookies)
    if (!flash) return null
    if (!isText(flash.description, language)) {
      return `message not in ${language}: ${flash.description.slice(0, 80)}`
    }
    if (flash.type !== 'error') return null
    // A refusal told on the next page: that page must show it. The same message on the same
    // page for the same person in the same language is rendered the same way, whichever
    // hostile post led there: it is read once.
    const seen = JSON.stringify([cookie, to, language, flash.description])
    if (shownAlready.has(seen)) return null
    const page = await follow(answer, cookie, language)
    if (page.status >= 500) return `the page it redirects to answers ${page.status}`
    const shown = messagesOf(page.text).flat()
    if (!shown.includes(flash.description)) return `message not shown: ${flash.description}`
    shownAlready.add(seen)
    return null
  }
  if (answer.status < 400) return null
  if (answer.type.includes('text/html')) {
    return messagesIn(answer.text, language).length
      ? null
      : `${answer.status} page without a message in ${language}: ${messagesOf(answer.text)
          .flat()
          .join(' | ')
          .slice(0, 120)}`
  }
  let message: unknown = answer.text
  if (answer.type.includes('json')) {
    const json = JSON.parse(answer.text) as { error?: unknown; message?: unknown }
    message = json.error ?? json.message
  }
  return typeof message === 'string' && isText(message, language)
    ? null
    : `${answer.status} ${answer.type} without a message in ${language}: ${answer.text.slice(0, 80)}`
}

/** Counts of what a request may have stored, to compare with what the answers said. */
const stored = { auctions: 0, bots: 0 }
/**
 * The accounts a registration said it made. By name: the same registration sent again while
 * its free bids are owed signs in to the account it made (docs/decisions/043-free-bids-owed.md).
 */
const registered = new Set<string>()

/** The username a registration's body carries, however it was encoded. */
function usernameOf(body: Body | undefined): string {
  if (!body) return ''
  if ('form' in body) return String(body.form.username ?? '')
  if (typeof body.raw === 'string') return new URLSearchParams(body.raw).get('username') ?? ''
  if (body.raw instanceof FormData) return String(body.raw.get('username') ?? '')
  return ''
}

async function runAll(jobs: Array<() => Promise<string | null>>, parallel = 4): Promise<string[]> {
  const problems: string[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < jobs.length) {
        const problem = await jobs[next++]!()
        if (problem) problems.push(problem)
      }
    }),
  )
  return problems
}

beforeAll(async () => {
  started = new Date()
  user = await account()
  victim = await account()
  admin = await adminSession()
  const [live, upcoming, edited] = await Promise.all([
    createAuction({ title: `Фазз живой ${unique()}`, startsInMs: 300 }),
    createAuction({ title: `Фазз скоро ${unique()}`, startsInMs: 3_600_000 }),
    createAuction({ title: `Фазз правка ${unique()}`, startsInMs: 7_200_000 }),
  ])
  Object.assign(auctions, { live, upcoming, edited })
  const checkout = await postPage(
    '/topup',
    { form: { intent: 'buy', packageId: 'bids-50' } },
    { cookie: user.cookie },
  )
  paymentId = /\/payments\/sandbox\/([^/?#]+)/.exec(checkout.location ?? '')?.[1] ?? ''
  expect(paymentId).not.toBe('')
  const settings = await call('/api/admin/settings', { method: 'GET', cookie: admin })
  expect(settings.status).toBe(200)
  settingsBefore = settings.json
})

afterAll(async () => {
  // What the fuzz created is removed, and the site's settings put back as they were.
  const prisma = e2eDatabase()
  const madeAuctions = await prisma.auction.findMany({
    where: { createdAt: { gte: started }, id: { notIn: Object.values(auctions).map((a) => a.id) } },
    select: { id: true },
  })
  for (const { id } of madeAuctions) {
    await call(`/api/admin/auctions/${id}`, { method: 'DELETE', cookie: admin })
  }
  const madeBots = await prisma.bot.findMany({
    where: { createdAt: { gte: started } },
    select: { id: true },
  })
  for (const { id } of madeBots)
    await call(`/api/admin/bots/${id}`, { method: 'DELETE', cookie: admin })
  await call('/api/admin/settings', { method: 'PUT', cookie: admin, body: settingsBefore })
})

describe('hostile form posts to every page action', () => {
  test('every route with an action outside /api is fuzzed here', () => {
    // Every route module the app serves (app/routes.ts), wherever its folder; keys are paths
    // under app/routes/.
    const withAction = routeManifest()
      .filter((route) => route.file.startsWith('routes/') && !route.url.startsWith('/api/'))
      .filter((route) =>
        /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b/.test(
          readFileSync(path.join(appDir, route.file), 'utf8'),
        ),
      )
      .map((route) => route.file.slice('routes/'.length))
      .sort()
    expect(Object.keys(pageActions).sort()).toEqual(withAction)
  })

  test.each(Object.keys(pageActions))(
    '%s',
    async (file) => {
      const route = pageActions[file]!
      // A login or a logout ends the session it was sent with: those get sessions of their own.
      const own = file === 'account/login.tsx' || file === 'account/logout.tsx'
      const cookies: Record<Who, string> = {
        anon: '',
        user: own ? (await account()).cookie : user.cookie,
        admin: own && file === 'account/logout.tsx' ? await adminSession() : admin,
      }
      let turn = 0
      const jobs: Array<() => Promise<string | null>> = []
      for (const form of route.forms()) {
        for (const who of ['anon', 'user', 'admin'] as const) {
          // Full depth for whoever gets past the door; the others are turned away first.
          const deep = route.admin ? who === 'admin' : who !== 'admin'
          const cases = [...bodies(form.fields()), ...(deep ? mutations(form.fields()) : [])]
          for (const { name, body, query } of deep ? cases : cases.slice(0, 6)) {
            const language = languages[turn++ % languages.length]!
            jobs.push(async () => {
              const url = query
                ? `${form.url}${form.url.includes('?') ? '&' : '?'}${query}`
                : form.url
              let answer: Answer
              try {
                answer = await postPage(url, body, { cookie: cookies[who], language })
              } catch (error) {
                return `${who} ${url.slice(0, 60)} ${name}: ${String(error)}`
              }
              const flash = flashOf(answer.cookies)
              if (flash?.type === 'success') {
                if (form.stores === 'users') registered.add(usernameOf(body))
                else if (form.stores) stored[form.stores]++
              }
              const problem = await problemWith(answer, cookies[who], language)
              return problem ? `${who} ${url.slice(0, 60)} ${name} [${language}]: ${problem}` : null
            })
          }
        }
      }
      const problems = await runAll(jobs)
      expect(problems).toEqual([])
    },
    // Up to a few hundred posts per route, each a page rendered: the admin's auction form took
    // over 60 s beside the other browser tests and two busy loops.
    240_000,
  )

  test('nothing was stored from garbage', async () => {
    const prisma = e2eDatabase()
    const made = await prisma.auction.findMany({
      where: {
        createdAt: { gte: started },
        id: { notIn: Object.values(auctions).map((a) => a.id) },
      },
    })
    expect(made.length).toBe(stored.auctions)
    const edited = await prisma.auction.findUniqueOrThrow({ where: { id: auctions.edited.id } })
    for (const auction of [...made, edited]) {
      expect(auction.title.length).toBeLessThanOrEqual(200)
      expect(auction.title).not.toContain('\u0000')
      expect(auction.retailPrice).toBeGreaterThan(0)
      expect(auction.retailPrice).toBeLessThanOrEqual(100_000_000_00)
    }
    const bots = await prisma.bot.findMany({ where: { createdAt: { gte: started } } })
    expect(bots.length).toBe(stored.bots)
    for (const bot of bots) {
      for (const name of [bot.firstName, bot.lastName]) {
        expect(name.length).toBeLessThanOrEqual(50)
        expect(name).not.toContain('\u0000')
      }
    }
    const accounts = await prisma.user.findMany({
      where: { createdAt: { gte: started }, id: { notIn: [...ours] } },
    })
    expect(accounts.map((person) => person.username).sort()).toEqual([...registered].sort())
    const people = [
      ...accounts,
      ...(await prisma.user.findMany({ where: { id: { in: [user.id, victim.id] } } })),
    ]
    for (const person of people) {
      expect(person.username).toMatch(/^[\p{L}\p{N}_.-]{3,30}$/u)
      expect(`${person.firstName ?? ''}${person.lastName ?? ''}`.length).toBeLessThanOrEqual(100)
      expect(JSON.stringify(person)).not.toContain('\\u0000')
      expect(person.role).toBe('user')
    }
    const adjustments = await prisma.balanceLedger.findMany({
      where: { reason: 'admin_adjust', createdAt: { gte: started } },
    })
    for (const row of adjustments) {
      expect(row.note?.length).toBeGreaterThan(0)
      expect(row.note?.length).toBeLessThanOrEqual(200)
      expect(row.note).not.toContain('\u0000')
      expect(Math.abs(row.amount)).toBeLessThanOrEqual(10_000_000)
    }
  })
})
