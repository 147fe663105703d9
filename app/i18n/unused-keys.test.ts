import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

// Every key of the ru source (app/locales/ru/*.json) must be named somewhere in the code, so
// texts nothing shows do not pile up in four languages. A key counts as used when its dotted path
// (or `namespace:path`) stands between quotes in a source file, or when a list it belongs to is
// read whole (`returnObjects`: the path of the array is named). Keys the code builds from a value
// are covered by the prefixes below. The check reads text only: a path named for another
// namespace also counts.

const root = path.resolve(import.meta.dirname, '../..')
const sourceRoots = ['app', 'server', 'engine', 'scripts', 'server.ts']

/**
 * Keys built at run time, by the file that builds them: `namespace:prefix.` covers every key
 * under it; `*` stands for a value inside one segment (`validation.${field}Taken`).
 */
const dynamicKeys: Record<string, string[]> = {
  'app/components/language-switcher.tsx': ['common:language.names.'],
  'app/components/cookie-banner.tsx': [
    'common:cookies.categories.',
    'common:cookies.descriptions.',
  ],
  'app/components/auction/bid-history.tsx': ['common:auction.bidStatuses.'],
  'app/components/profile/profile-form.tsx': ['common:completeProfile.genders.'],
  // The `validation.*Taken` keys it builds are named in app/models/user.server.ts (takenRefusal).
  'app/services/availability.server.ts': ['common:validation.*Available'],
  'app/services/bidding.server.ts': ['common:bidding.errors.'],
  'app/routes/telegram-app.tsx': ['common:miniApp.refused.'],
  'app/routes/auction/bid-history.tsx': ['common:bidHistory.stats.'],
  'app/routes/auction/auction.$slug_.audit.tsx': ['record:kinds.'],
  // Refusals before Remix read the `api` object of common.json by the refusal's name.
  'server/messages.ts': ['common:api.badUrl', 'common:api.crossSite'],
  'app/components/orders/my-orders.tsx': [
    'orders:kind.',
    'orders:status.',
    'orders:delivery.methods.',
    'orders:delivery.short.',
  ],
  'app/routes/account/topup.tsx': ['payments:topup.trust.', 'payments:topup.guide.'],
  'app/routes/account/topup_.order.$id.tsx': [
    'payments:order.notPayable.',
    'payments:order.deliveryMethods.',
  ],
  'app/routes/how-it-works.tsx': ['pages:howItWorks.steps.', 'pages:howItWorks.example.'],
  'app/routes/support.tsx': ['pages:support.channels.', 'pages:support.hours.'],
  'app/routes/auction-rules.tsx': ['pages:rules.groups.', 'pages:rules.delivery.'],
  // LegalDocument reads `${k}.title`, `.lead`, `.updated`, `.sections`, `.contactsText`
  // for k = 'privacy' (app/routes/privacy-policy.tsx) and 'terms' (app/routes/terms-of-service.tsx).
  'app/components/static-page.tsx': ['pages:shared.contact.', 'pages:privacy.', 'pages:terms.'],
  'app/components/admin/finished-stats.tsx': ['admin-finished:stats.roles.'],
  'app/components/admin/orders-table.tsx': [
    'admin-orders:actions.',
    'admin-orders:payment.status.',
    'admin-orders:payment.reason.',
  ],
  'app/routes/admin/admin.payments.tsx': [
    'admin-payments:status.',
    'admin-payments:table.',
    'admin-payments:reason.',
  ],
  'app/components/admin/users-activity.tsx': ['admin-users:activity.prebidStatus.'],
  // A row's actions (RowActions, app/components/ui/table.tsx): each text and label by its action.
  'app/components/admin/users-table.tsx': ['admin-users:actions.'],
  'app/components/admin/dashboard-auctions-table.tsx': [
    'admin-dashboard:auctions.edit',
    'admin-dashboard:auctions.end',
    'admin-dashboard:auctions.delete',
    'admin-dashboard:auctions.*Label',
  ],
  'app/components/admin/finished-table.tsx': [
    'admin-finished:table.view',
    'admin-finished:table.delete',
    'admin-finished:table.*Label',
  ],
  // A confirmation's texts (confirmRoute, app/services/confirm-route.server.ts): `.title`,
  // `.text`, `.confirm`, `.done`, `.failed` and their variants under the route's prefix.
  'app/routes/admin/admin._dashboard.auctions.$id.delete.tsx': ['admin-dashboard:delete.'],
  'app/routes/admin/admin._dashboard.auctions.$id.end.tsx': ['admin-dashboard:end.'],
  'app/routes/admin/admin._dashboard.bots.$id.delete.tsx': ['admin-dashboard:deleteBot.'],
  'app/routes/admin/admin.finished-auctions.$id.delete.tsx': ['admin-finished:delete.'],
  'app/routes/admin/admin.users.$id.delete.tsx': ['admin-users:delete.'],
  'app/models/autobid.server.ts': ['autobid:errors.'],
  'app/services/alerts/message.server.ts': ['alerts:messages.'],
  'app/components/profile/profile-alerts.tsx': ['alerts:kinds.', 'alerts:channels.'],
}

type Entry = { path: string; isArray: boolean }

/** Every text of a namespace with its path, and every array (a list read whole) on the way. */
function entries(value: unknown, prefix = '', out: Entry[] = []): Entry[] {
  if (typeof value === 'string') {
    out.push({ path: prefix, isArray: false })
    return out
  }
  if (Array.isArray(value)) out.push({ path: prefix, isArray: true })
  for (const [key, child] of Object.entries(value as Record<string, unknown>))
    entries(child, prefix ? `${prefix}.${key}` : key, out)
  return out
}

const stripPlural = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')

function sourceFiles(): string[] {
  const files: string[] = []
  for (const entry of sourceRoots) {
    const full = path.join(root, entry)
    if (!existsSync(full)) continue
    if (entry.endsWith('.ts')) {
      files.push(full)
      continue
    }
    for (const file of readdirSync(full, { recursive: true, encoding: 'utf8' }))
      if (/\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes('node_modules'))
        files.push(path.join(full, file))
  }
  return files
}

/** Every run of key characters that stands right after a quote and right before one. */
function quotedNames(): Set<string> {
  const names = new Set<string>()
  for (const file of sourceFiles())
    for (const match of readFileSync(file, 'utf8').matchAll(/(?<=['"`])[\w.:-]+(?=['"`])/g))
      names.add(match[0])
  return names
}

const patterns = Object.entries(dynamicKeys).flatMap(([file, list]) =>
  list.map((pattern) => {
    const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\w-]+')
    return { file, pattern, regex: new RegExp(`^${escaped}${pattern.endsWith('.') ? '' : '$'}`) }
  }),
)

const localesDir = path.join(root, 'app/locales/ru')
const namespaces = readdirSync(localesDir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => {
    const list = entries(JSON.parse(readFileSync(path.join(localesDir, file), 'utf8')))
    return {
      ns: file.replace(/\.json$/, ''),
      arrays: new Set(list.filter((entry) => entry.isArray).map((entry) => entry.path)),
      keys: new Set(list.filter((entry) => !entry.isArray).map((entry) => stripPlural(entry.path))),
    }
  })

const quoted = quotedNames()
/** Named in the code, with its namespace or without. */
const named = (qualified: string) =>
  quoted.has(qualified) || quoted.has(qualified.slice(qualified.indexOf(':') + 1))

/** Whether `test` accepts the key (namespace-qualified), or a list the key belongs to. */
function covers(test: (name: string) => boolean, ns: string, key: string, arrays: Set<string>) {
  if (test(`${ns}:${key}`)) return true
  const segments = key.split('.')
  for (let end = segments.length - 1; end > 0; end--) {
    const ancestor = segments.slice(0, end).join('.')
    if (arrays.has(ancestor) && test(`${ns}:${ancestor}`)) return true
  }
  return false
}

test('every ru key is used by the code', () => {
  const dynamic = (qualified: string) => patterns.some(({ regex }) => regex.test(qualified))
  const unused: string[] = []
  for (const { ns, arrays, keys } of namespaces)
    for (const key of keys)
      if (!covers(named, ns, key, arrays) && !covers(dynamic, ns, key, arrays))
        unused.push(`${ns}:${key}`)
  expect(unused).toEqual([])
})

test('each dynamic prefix names a file that exists and covers a key nothing else names', () => {
  const stale: string[] = []
  for (const { file, pattern, regex } of patterns) {
    if (!existsSync(path.join(root, file))) stale.push(`${file}: missing`)
    const matches = (name: string) => regex.test(name)
    const needed = namespaces.some(({ ns, arrays, keys }) =>
      [...keys].some((key) => covers(matches, ns, key, arrays) && !covers(named, ns, key, arrays)),
    )
    if (!needed) stale.push(`${file}: ${pattern}`)
  }
  expect(stale).toEqual([])
})
