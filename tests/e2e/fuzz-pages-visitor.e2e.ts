import { describe, expect, test } from 'vitest'
import { adminActions } from './fuzz-admin-actions.ts'
import { fuzzFixtures, fuzzRoute, nothingStored, routesWithAction } from './fuzz-run.ts'
import { visitorActions } from './fuzz-visitor-actions.ts'

// Runs alone: it counts every account registered while it runs, and shares the fuzz's setup with
// fuzz-pages-admin.e2e.ts, which posts hostile input to the admin settings forms every page shows.

// Hostile form posts to every page action of visitors and people (every route module with an
// `action` outside /api and /admin), as anonymous, as a user and as an admin, in every interface
// language: never a 5xx; a refusal is a 4xx page or a redirect that shows why, in the visitor's
// language; and nothing is stored from garbage. The admin's pages: fuzz-pages-admin.e2e.ts; the
// JSON API has its own fuzz (fuzz-api.e2e.ts).

const fixtures = fuzzFixtures()

describe('hostile form posts to every page action', () => {
  test('every route with an action outside /api is fuzzed here or in fuzz-pages-admin.e2e.ts', () => {
    const fuzzed = [...Object.keys(visitorActions), ...Object.keys(adminActions)]
    expect(fuzzed.sort()).toEqual(routesWithAction())
  })

  test.each(Object.keys(visitorActions))(
    '%s',
    (file) => fuzzRoute(fixtures, visitorActions, file),
    // Up to a few hundred posts per route, each a page rendered: the admin's auction form took
    // over 60 s beside the other browser tests and two busy loops.
    240_000,
  )

  test('nothing was stored from garbage', () => nothingStored(fixtures))
})
