import { data, redirect, type AppLoadContext } from '@remix-run/node'
import { placeBid, placePrebid } from '~/services/bidding.server.ts'
import { getFixedT } from '~/services/i18n.server.ts'
import { getOptionalUserId } from '~/services/session.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { readForm } from '~/utils/form.server.ts'

/**
 * The action behind every bid and prebid button (auction page, home, auctions list): a fetcher
 * gets {ok, message} with the fitting status; a plain form post (no JavaScript) is redirected
 * back to `back` with the message as a toast, or to the login page when nobody is logged in.
 */
export async function handleBidForm(
  request: Request,
  context: AppLoadContext,
  back: string,
  auctionId?: string,
) {
  const form = await readForm(request)
  const intent = form.get('intent')
  const id = auctionId ?? String(form.get('auctionId') ?? '')
  const viaFetcher = form.get('via') === 'fetcher'
  const t = await getFixedT(request)
  const reply = (ok: boolean, message: string, status: number, title?: string, price?: number) =>
    viaFetcher
      ? data({ ok, message, price: price ?? null }, { status })
      : redirectWithToast(
          back,
          ok
            ? { type: 'success', description: message }
            : { type: 'error', title, description: message },
        )

  if (intent !== 'bid' && intent !== 'prebid') return reply(false, t('api.invalid'), 400)
  const failed = intent === 'bid' ? t('bidding.bidFailed') : t('bidding.prebidFailed')
  // An auction the engine holds is known; others are looked up in Postgres.
  const known =
    id.length > 0 &&
    id.length <= 64 &&
    ((await context.engine.getState(id)) !== null ||
      (await getPrisma().auction.count({ where: { id } })) > 0)
  if (!known) return reply(false, t('bidding.errors.auction_not_found'), 404, failed)

  const userId = await getOptionalUserId(request)
  if (!userId) {
    if (!viaFetcher) return redirect(`/login?redirectTo=${encodeURIComponent(back)}`)
    return reply(
      false,
      intent === 'bid' ? t('bidding.loginToBid') : t('bidding.loginToPrebid'),
      401,
      failed,
    )
  }
  const outcome =
    intent === 'bid'
      ? await placeBid(context.engine, id, userId, t)
      : await placePrebid(context.engine, id, userId, t)
  return reply(
    outcome.ok,
    outcome.message,
    outcome.status,
    failed,
    outcome.ok && intent === 'bid' ? outcome.price : undefined,
  )
}
