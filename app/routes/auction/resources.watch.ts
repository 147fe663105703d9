import { type ActionFunctionArgs } from '@remix-run/node'
import { setWatching, WATCH_NS } from '~/models/watch.server.ts'
import { loginRedirect, withUserId } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { formAnswer, readForm } from '~/utils/form.server.ts'
import { safeRedirect } from '~/utils/http.ts'
import type { WatchActionResult } from '~/types/watch.ts'

// Where every watch toggle posts (auction cards, the auction page; app/components/auction/
// watch-toggle.tsx). With JavaScript a fetcher gets the outcome as data; without, the form names
// the page it came from (`redirectTo`) and is sent back there with the outcome as a toast.

export async function action({ request, context }: ActionFunctionArgs) {
  const [form, t] = await Promise.all([readForm(request), getFixedT(request, [WATCH_NS, 'common'])])
  const redirectTo = form.get('redirectTo')
  const back = redirectTo === null ? null : safeRedirect(redirectTo)
  const refused = {
    ok: false,
    watching: null,
    message: t('watch:loginRequired'),
  } satisfies WatchActionResult
  const signedOut = () => (back !== null ? loginRedirect(back) : formAnswer(form, refused, 401))
  return withUserId(request, signedOut, async (userId) => {
    const wanted = form.get('watching') === '1'
    let outcome: WatchActionResult
    let status = 200
    try {
      const watching = await setWatching(
        context.engine,
        userId,
        String(form.get('auctionId') ?? ''),
        wanted,
      )
      outcome = { ok: true, watching, message: t(watching ? 'watch:added' : 'watch:removed') }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      status = error.status
      outcome = { ok: false, watching: null, message: t(error.key) }
    }
    if (back === null) return formAnswer(form, outcome, status)
    return redirectWithToast(
      back,
      outcome.ok
        ? { type: 'success', description: outcome.message }
        : { type: 'error', title: t('watch:failed'), description: outcome.message },
    )
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
