import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, test } from 'vitest'
import { createBotDrivenAuction, untilLive } from './auctions.ts'
import { open, phone, setupBrowser } from './browser.ts'
import { newUser, signIn } from './people.ts'

// axe-core in real Chromium: no serious or critical WCAG 2 A/AA violations on the pages people
// use most, on a desktop and a phone, logged out and logged in.
const browser = setupBrowser({ concurrent: true })
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

type Violation = {
  id: string
  impact: string | null
  help: string
  nodes: Array<{ target: unknown }>
}

async function seriousViolations(page: Page) {
  // The cookie banner fades in 2 s after a page loads: measured halfway, its buttons' contrast is
  // that of a half-transparent banner. Entrances are taken to their end first, as a person sees
  // them after those seconds (spinners run forever: not those).
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if (animation.effect?.getComputedTiming().iterations !== Infinity) animation.finish()
    }
  })
  await page.addScriptTag({ content: axeSource })
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: Violation[] }> }
      }
    ).axe
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })
    return result.violations
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`,
    )
}

let liveSlug = ''
let liveId = ''
beforeAll(async () => {
  const live = await createBotDrivenAuction(`Доступность ${Date.now()}`)
  liveSlug = live.slug
  liveId = live.id
  await untilLive(live.id)
})

const publicPages = () => [
  '/',
  '/auctions',
  `/auction/${liveSlug}`,
  '/login',
  '/login?tab=register',
  '/topup',
  '/no-such-page',
]

type PageSet = {
  name: string
  /** Signs the page's person in (one page more to wait for), or nothing for a visitor. */
  signIn?: (page: Page, label: string) => Promise<unknown>
  paths: () => string[]
  /** The path opens a dialog route: its dialog is waited for before axe runs. */
  dialog?: (path: string) => boolean
}

const pageSets: PageSet[] = [
  { name: 'public pages', paths: publicPages },
  {
    name: 'pages of a logged-in person',
    signIn: (page, label) => newUser(page, `a11y${label}`),
    paths: () => [
      '/',
      '/profile',
      '/profile?edit=1',
      '/bid-history',
      `/auction/${liveSlug}`,
      '/logout',
    ],
  },
  {
    name: 'the admin dashboard and its dialog routes',
    signIn: (page) => signIn(page, 'admin', 'admin123'),
    paths: () => [
      '/admin',
      '/admin/auctions/new',
      `/admin/auctions/${liveId}/edit`,
      `/admin/auctions/${liveId}/end`,
      '/admin/bots/settings',
    ],
    dialog: (path) => path !== '/admin',
  },
  {
    name: "the admin lists' dialog routes",
    signIn: (page) => signIn(page, 'admin', 'admin123'),
    paths: () => [
      '/admin/users/no-such/edit',
      '/admin/users/no-such/activity',
      '/admin/users/no-such/delete',
      '/admin/orders/no-such/refund',
      '/admin/finished-auctions/no-such/stats',
      '/admin/finished-auctions/no-such/delete',
    ],
    dialog: () => true,
  },
]

/**
 * A test gets 45 s for each page it opens (signing in counts as one): under load each page here
 * has taken over 15 s (hydration, the network falling quiet, axe), and a test of six pages ran
 * past the suite's 90 s on a loaded 2-core machine.
 */
const timeFor = (set: PageSet) => (set.paths().length + (set.signIn ? 1 : 0)) * 45_000

// Each test its own context: the eight run at once (most of their time is pages loading).
describe.concurrent('accessibility', () => {
  for (const [label, options] of [
    ['desktop', {}],
    ['phone', phone],
  ] as const) {
    for (const set of pageSets) {
      test(
        `${set.name} (${label})`,
        async () => {
          const page = await browser.newPage(options)
          await set.signIn?.(page, label)
          const problems: string[] = []
          for (const path of set.paths()) {
            await open(page, path)
            await page.waitForLoadState('networkidle').catch(() => {})
            if (set.dialog?.(path)) await page.getByRole('dialog').waitFor()
            for (const problem of await seriousViolations(page))
              problems.push(`${path}: ${problem}`)
          }
          await page.context().close()
          expect(problems).toEqual([])
        },
        timeFor(set),
      )
    }
  }
})
