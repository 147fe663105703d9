import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { routeManifest } from '../support/route-manifest.ts'
import { call, newAccount, unique } from './api.ts'
import { createAuction, e2eDatabase } from './auctions.ts'
import { adminSession } from './admin-api.ts'
import { problemWith } from './fuzz-answers.ts'
import { bodies, mutations } from './fuzz-bodies.ts'
import type { Fixtures, PageActions, Who } from './fuzz-forms.ts'
import { flashOf, languages, postPage, type Answer, type Body } from './pages.ts'

// How the page-action fuzz (fuzz-pages-*.e2e.ts) runs: what each file makes first and removes
// after, every form of a route posted broken every way as anonymous, as a user and as an admin,
// and the check that nothing was stored from garbage.

const appDir = path.resolve(import.meta.dirname, '../../app')

/** Accounts the test made itself (every other new one came from a registration form). */
const ours = new Set<string>()

async function account() {
  const made = await newAccount()
  ours.add(made.id)
  return made
}

/**
 * The people, auctions and payment a fuzz file's forms name, made before its tests; what the
 * fuzz created is removed after them, and the site's settings put back as they were.
 */
export function fuzzFixtures(): Fixtures {
  const f: Fixtures = {
    started: new Date(),
    user: { cookie: '', id: '', name: '' },
    victim: { id: '', name: '' },
    admin: '',
    auctions: { live: { id: '', slug: '' }, upcoming: { id: '', slug: '' }, edited: { id: '' } },
    paymentId: '',
    settingsBefore: {},
  }
  beforeAll(async () => {
    f.started = new Date()
    f.user = await account()
    f.victim = await account()
    f.admin = await adminSession()
    const [live, upcoming, edited] = await Promise.all([
      createAuction({ title: `Фазз живой ${unique()}`, startsInMs: 300 }),
      createAuction({ title: `Фазз скоро ${unique()}`, startsInMs: 3_600_000 }),
      createAuction({ title: `Фазз правка ${unique()}`, startsInMs: 7_200_000 }),
    ])
    Object.assign(f.auctions, { live, upcoming, edited })
    const checkout = await postPage(
      '/topup',
      { form: { intent: 'buy', packageId: 'bids-50' } },
      { cookie: f.user.cookie },
    )
    f.paymentId = /\/payments\/sandbox\/([^/?#]+)/.exec(checkout.location ?? '')?.[1] ?? ''
    expect(f.paymentId).not.toBe('')
    const settings = await call('/api/admin/settings', { method: 'GET', cookie: f.admin })
    expect(settings.status).toBe(200)
    f.settingsBefore = settings.json
  })
  afterAll(async () => {
    // What the fuzz created is removed, and the site's settings put back as they were.
    const prisma = e2eDatabase()
    const madeAuctions = await prisma.auction.findMany({
      where: {
        createdAt: { gte: f.started },
        id: { notIn: Object.values(f.auctions).map((a) => a.id) },
      },
      select: { id: true },
    })
    for (const { id } of madeAuctions) {
      await call(`/api/admin/auctions/${id}`, { method: 'DELETE', cookie: f.admin })
    }
    const madeBots = await prisma.bot.findMany({
      where: { createdAt: { gte: f.started } },
      select: { id: true },
    })
    for (const { id } of madeBots)
      await call(`/api/admin/bots/${id}`, { method: 'DELETE', cookie: f.admin })
    await call('/api/admin/settings', { method: 'PUT', cookie: f.admin, body: f.settingsBefore })
  })
  return f
}

/** Every route module with an action outside /api (app/routes.ts), by its file under app/routes/. */
export function routesWithAction() {
  return routeManifest()
    .filter((route) => route.file.startsWith('routes/') && !route.url.startsWith('/api/'))
    .filter((route) =>
      /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b/.test(
        readFileSync(path.join(appDir, route.file), 'utf8'),
      ),
    )
    .map((route) => route.file.slice('routes/'.length))
    .sort()
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

/** Posts every form of `file`'s route, broken every way; fails with every wrong answer. */
export async function fuzzRoute(f: Fixtures, actions: PageActions, file: string) {
  const route = actions[file]!
  // A login or a logout ends the session it was sent with: those get sessions of their own.
  const own = file === 'account/login.tsx' || file === 'account/logout.tsx'
  const cookies: Record<Who, string> = {
    anon: '',
    user: own ? (await account()).cookie : f.user.cookie,
    admin: own && file === 'account/logout.tsx' ? await adminSession() : f.admin,
  }
  let turn = 0
  const jobs: Array<() => Promise<string | null>> = []
  for (const form of route.forms(f)) {
    for (const who of ['anon', 'user', 'admin'] as const) {
      // Full depth for whoever gets past the door; the others are turned away first.
      const deep = route.admin ? who === 'admin' : who !== 'admin'
      const cases = [...bodies(form.fields()), ...(deep ? mutations(form.fields()) : [])]
      for (const { name, body, query } of deep ? cases : cases.slice(0, 6)) {
        const language = languages[turn++ % languages.length]!
        jobs.push(async () => {
          const url = query ? `${form.url}${form.url.includes('?') ? '&' : '?'}${query}` : form.url
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
}

/** Nothing stored from garbage since the file's fixtures were made. */
export async function nothingStored(f: Fixtures) {
  const prisma = e2eDatabase()
  const made = await prisma.auction.findMany({
    where: {
      createdAt: { gte: f.started },
      id: { notIn: Object.values(f.auctions).map((a) => a.id) },
    },
  })
  expect(made.length).toBe(stored.auctions)
  const edited = await prisma.auction.findUniqueOrThrow({ where: { id: f.auctions.edited.id } })
  for (const auction of [...made, edited]) {
    expect(auction.title.length).toBeLessThanOrEqual(200)
    expect(auction.title).not.toContain('\u0000')
    expect(auction.retailPrice).toBeGreaterThan(0)
    expect(auction.retailPrice).toBeLessThanOrEqual(100_000_000_00)
  }
  const bots = await prisma.bot.findMany({ where: { createdAt: { gte: f.started } } })
  expect(bots.length).toBe(stored.bots)
  for (const bot of bots) {
    for (const name of [bot.firstName, bot.lastName]) {
      expect(name.length).toBeLessThanOrEqual(50)
      expect(name).not.toContain('\u0000')
    }
  }
  const accounts = await prisma.user.findMany({
    where: { createdAt: { gte: f.started }, id: { notIn: [...ours] } },
  })
  expect(accounts.map((person) => person.username).sort()).toEqual([...registered].sort())
  const people = [
    ...accounts,
    ...(await prisma.user.findMany({ where: { id: { in: [f.user.id, f.victim.id] } } })),
  ]
  for (const person of people) {
    expect(person.username).toMatch(/^[\p{L}\p{N}_.-]{3,30}$/u)
    expect(`${person.firstName ?? ''}${person.lastName ?? ''}`.length).toBeLessThanOrEqual(100)
    expect(JSON.stringify(person)).not.toContain('\\u0000')
    expect(person.role).toBe('user')
  }
  const adjustments = await prisma.balanceLedger.findMany({
    where: { reason: 'admin_adjust', createdAt: { gte: f.started } },
  })
  for (const row of adjustments) {
    expect(row.note?.length).toBeGreaterThan(0)
    expect(row.note?.length).toBeLessThanOrEqual(200)
    expect(row.note).not.toContain('\u0000')
    expect(Math.abs(row.amount)).toBeLessThanOrEqual(10_000_000)
  }
}
