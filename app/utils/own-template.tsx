import { createContext, useContext, type ReactElement } from 'react'
import type { CurrentUser } from '~/services/session.server.ts'

// A page that signed-in people share (decision 022) is rendered once with a stand-in user, and
// each person's copy is that render with their own parts filled in. What those parts are, the
// components say here: a text or a piece of markup that is someone's own comes from their
// values (`OwnValues`); in the shared render it is a hole, filled for each person later.

/** What a signed-in person's page shows of their own. */
export type OwnValues = {
  user: CurrentUser
  /** The auctions on the page the person holds a prebid on. */
  prebidIds?: readonly string[]
  /** The auction page: the person holds a prebid on it. */
  hasPrebid?: boolean
}

/** The shared render's side: it hands out a hole for each own part. */
export type OwnTemplateHoles = {
  /** A hole whose text is `render(values)` for each person (escaped as page text). */
  text(render: (own: OwnValues) => string): string
  /**
   * A hole whose markup is one of a few variants: `pick` names the variant for a person, and
   * `render` draws a variant (once per variant, whoever needs it first).
   */
  choice(pick: (own: OwnValues) => string, render: (variant: string) => ReactElement): string
}

const OwnTemplateContext = createContext<OwnTemplateHoles | null>(null)
export const OwnTemplateProvider = OwnTemplateContext.Provider

/**
 * A person's own text: `render(values)`, or in the shared render a hole filled with
 * `render` of each person's values.
 */
export function useOwnText() {
  const holes = useContext(OwnTemplateContext)
  return (render: (own: OwnValues) => string, values: OwnValues): string =>
    holes ? holes.text(render) : render(values)
}

/** The shared render's holes, or null in any other render (the browser's, a person's own). */
export function useOwnHoles(): OwnTemplateHoles | null {
  return useContext(OwnTemplateContext)
}
