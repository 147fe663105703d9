import { describe, test } from 'vitest'
import { adminActions } from './fuzz-admin-actions.ts'
import { fuzzFixtures, fuzzRoute, nothingStored } from './fuzz-run.ts'

// Runs alone: it posts hostile input to the admin settings forms, which every page shows.

// Hostile form posts to every page action of the admin's pages, as anonymous, as a user and as an
// admin, in every interface language: never a 5xx; a refusal is a 4xx page or a redirect that
// shows why, in the visitor's language; and nothing is stored from garbage. Visitors' and
// people's pages: fuzz-pages-visitor.e2e.ts.

const fixtures = fuzzFixtures()

describe('hostile form posts to every page action', () => {
  test.each(Object.keys(adminActions))(
    '%s',
    (file) => fuzzRoute(fixtures, adminActions, file),
    // Up to a few hundred posts per route, each a page rendered: the admin's auction form took
    // over 60 s beside the other browser tests and two busy loops.
    240_000,
  )

  test('nothing was stored from garbage', () => nothingStored(fixtures))
})
