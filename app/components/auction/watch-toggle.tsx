import { useFetcher, useLocation } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { showToast } from '~/components/toaster.tsx'
import type { WatchActionResult } from '~/types/watch.ts'
import { useHydrated } from '~/utils/hooks.ts'
import { WATCH_ACTION } from '~/utils/revalidation.ts'

/**
 * The watch toggle of an auction card and page (docs/rules.md#watchlist): a plain form that comes
 * back to the page with a toast without JavaScript, a fetcher that changes in place with it.
 * Only for a signed-in person (the caller decides).
 */
export function WatchToggle({
  auctionId,
  watching,
  className = '',
}: {
  auctionId: string
  watching: boolean
  className?: string
}) {
  const { t } = useTranslation('watch')
  const location = useLocation()
  const hydrated = useHydrated()
  const fetcher = useFetcher<WatchActionResult>({ key: `watch-${auctionId}` })
  const sending = fetcher.formData?.get('watching')
  const answered = fetcher.data?.ok ? fetcher.data.watching : null
  const shown = sending != null ? sending === '1' : (answered ?? watching)

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok)
      showToast({ type: 'error', title: t('failed'), description: fetcher.data.message })
  }, [fetcher.state, fetcher.data, t])

  return (
    <fetcher.Form method="post" action={WATCH_ACTION} preventScrollReset className={className}>
      <input type="hidden" name="auctionId" value={auctionId} />
      <input type="hidden" name="watching" value={shown ? '0' : '1'} />
      {hydrated ? (
        <input type="hidden" name="via" value="fetcher" />
      ) : (
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      )}
      <button
        type="submit"
        aria-pressed={shown}
        // Shown at once; busy until the site has answered.
        aria-busy={sending != null}
        data-testid="watch-toggle"
        className={`inline-flex items-center gap-1 rounded-md border px-2.5 py-1 text-sm font-semibold ${
          shown
            ? 'border-amber-400 bg-amber-50 text-amber-800 hover:bg-amber-100'
            : 'border-slate-300 text-slate-700 hover:bg-slate-50'
        }`}
      >
        <span aria-hidden>{shown ? '★' : '☆'}</span>
        {shown ? t('watching') : t('watch')}
      </button>
    </fetcher.Form>
  )
}
