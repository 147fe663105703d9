import type { AppLoadContext } from '@remix-run/node'
import type { Engine } from '../../engine/index.ts'
import { hasUserPrebid } from '~/models/auction.server.ts'
import { getAutoBid } from '~/models/autobid.server.ts'
import { getPrebidAuctionIds } from '~/models/prebids.server.ts'
import { getOptionalUser, type CurrentUser } from '~/services/session.server.ts'

// What of a page's data is the signed-in person's own, for the pages signed-in people share
// (decision 022): the page's loader and the filling of a shared page read it the same way.

/**
 * The person a page is for: the signed-in user, or in the shared render of a page (decision
 * 022) the stand-in user it is rendered for.
 */
export function pageUser(request: Request, context: AppLoadContext): Promise<CurrentUser | null> {
  return context.ownTemplate ? Promise.resolve(context.ownTemplate.user) : getOptionalUser(request)
}

type Card = { id: string }

/** The prebids a person holds on the upcoming auctions (and packages) of a list of cards. */
export async function cardPrebidIds(user: CurrentUser | null, ...lists: Card[][]) {
  return getPrebidAuctionIds(
    user?.id,
    lists.flatMap((list) => list.map((card) => card.id)),
  )
}

/** The auction page's own values: the person's prebid on it and their auto-bidder. */
export async function auctionOwnValues(
  engine: Engine,
  auction: { id: string; status: string },
  user: CurrentUser | null,
) {
  const [hasPrebid, autoBid] = await Promise.all([
    user && auction.status === 'upcoming'
      ? hasUserPrebid(auction.id, user.id).then(
          (found) => found || engine.hasPrebid(auction.id, user.id),
        )
      : false,
    user && auction.status !== 'finished' ? getAutoBid(engine, auction.id, user.id) : null,
  ])
  return { hasPrebid, autoBid }
}

type OwnRoute = {
  /** The keys of the route's data that are the person's own. */
  keys: readonly string[]
  /** Their values for a person, given the route's shared data; null: the page is theirs alone. */
  values: (
    user: CurrentUser,
    data: Record<string, unknown>,
    engine: Engine,
  ) => Promise<Record<string, unknown> | null>
}

const cards = (data: Record<string, unknown>, key: string) =>
  Array.isArray(data[key]) ? (data[key] as Card[]) : []

/** The pages signed-in people share, by route. */
const OWN_ROUTES: Record<string, OwnRoute> = {
  'routes/_index': {
    keys: ['prebidIds'],
    values: async (user, data) => ({
      prebidIds: await cardPrebidIds(user, cards(data, 'upcoming'), cards(data, 'packages')),
    }),
  },
  'routes/auctions': {
    keys: ['prebidIds'],
    values: async (user, data) => ({
      prebidIds: await cardPrebidIds(user, cards(data, 'auctions')),
    }),
  },
  'routes/auction.$slug': {
    keys: ['hasPrebid', 'autoBid'],
    values: async (user, data, engine) => {
      const auction = data.auction as { id: string; status: string } | null | undefined
      // A finished auction's page offers its winner to buy; an auto-bidder has a panel of its own.
      if (!auction || auction.status === 'finished') return null
      const own = await auctionOwnValues(engine, auction, user)
      return own.autoBid ? null : own
    },
  },
}

export const ownKeysOfRoute = (routeId: string) => OWN_ROUTES[routeId]?.keys ?? []

/** A route's own values for a person, or null where its page is not shared. */
export function ownValuesOfRoute(
  routeId: string,
  user: CurrentUser,
  data: Record<string, unknown>,
  engine: Engine,
) {
  return OWN_ROUTES[routeId]?.values(user, data, engine) ?? Promise.resolve(null)
}

/** Routes whose pages signed-in people share. */
export const sharedRouteIds = Object.keys(OWN_ROUTES)
