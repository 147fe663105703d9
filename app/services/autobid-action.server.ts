import { data, type AppLoadContext } from '@remix-run/node'
import { AUTOBID_NS, startAutoBid, stopAutoBid } from '~/models/autobid.server.ts'
import { loginRedirect, withUser } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { sentByFetcher } from '~/utils/form.server.ts'

export const AUTOBID_INTENTS = ['autobid', 'autobidStop'] as const

/**
 * The auto-bidder form on the auction page: a plain post is redirected back with a toast (or
 * to the login page), a fetcher gets {ok, message} with the fitting status.
 */
export async function handleAutoBidForm(
  request: Request,
  context: AppLoadContext,
  form: FormData,
  back: string,
  auctionId: string,
) {
  const t = await getFixedT(request, AUTOBID_NS)
  const viaFetcher = sentByFetcher(form)
  const intent = form.get('intent')
  const failed = intent === 'autobid' ? t('autobid:startFailed') : t('autobid:stopFailed')
  const reply = (ok: boolean, message: string, status: number) =>
    viaFetcher
      ? data({ ok, message }, { status })
      : redirectWithToast(
          back,
          ok
            ? { type: 'success', description: message }
            : { type: 'error', title: failed, description: message },
        )
  const signedOut = () =>
    viaFetcher ? reply(false, t('autobid:loginRequired'), 401) : loginRedirect(back)
  return withUser(request, signedOut, async (user) => {
    const outcome =
      intent === 'autobid'
        ? await startAutoBid(context.engine, auctionId, user.id, { bids: form.get('bids') }, t)
        : await stopAutoBid(context.engine, auctionId, user.id, t)
    return reply(outcome.ok, outcome.message, outcome.status)
  })
}
