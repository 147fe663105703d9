import { useFetcher, useLocation, useRevalidator } from '@remix-run/react'
import { Bot, Loader2 } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { showToast } from '~/components/toaster.tsx'
import { useHydrated } from '~/utils/hooks.ts'
import { useSocket } from '~/utils/socket.tsx'
import { AUTO_BID_MAX } from '../../../engine/types.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'

type ActionResult = { ok: boolean; message: string }

/**
 * The auto-bidder: the user reserves a number of bids and the engine places them in the last
 * seconds of the timer. A plain form post without JavaScript; with it, a fetcher and a toast.
 */
export function AutoBidPanel({
  auctionId,
  autoBid,
}: {
  auctionId: string
  autoBid: { bidsLeft: number; placed: number } | null
}) {
  const { t } = useTranslation('autobid')
  const location = useLocation()
  const hydrated = useHydrated()
  const fetcher = useFetcher<ActionResult>({ key: `autobid-${auctionId}` })
  const pending = useIsPending({ fetcher })
  const intent = autoBid ? 'autobidStop' : 'autobid'

  useEffect(() => {
    if (pending || !fetcher.data) return
    const failed = intent === 'autobid' ? t('startFailed') : t('stopFailed')
    showToast(
      fetcher.data.ok
        ? { type: 'success', description: fetcher.data.message }
        : { type: 'error', title: failed, description: fetcher.data.message },
    )
    // The toast belongs to the answer, not to a later change of intent.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending, fetcher.data, t])

  // Bids placed for the user (and the return at the end) refresh the figures shown here.
  const { socket } = useSocket()
  const revalidator = useRevalidator()
  useEffect(() => {
    if (!socket) return
    const onUpdate = (payload: { auctionId?: string }) => {
      if (payload.auctionId === auctionId && revalidator.state === 'idle') revalidator.revalidate()
    }
    socket.on('autoBidUpdate', onUpdate)
    return () => {
      socket.off('autoBidUpdate', onUpdate)
    }
  }, [socket, auctionId, revalidator])

  // The same form before and after hydration (a fetcher's form is a plain form without
  // JavaScript): switching components would remount it and drop what was typed meanwhile.
  const FormComponent = fetcher.Form
  const inputId = `autobid-${auctionId}-bids`
  return (
    <section
      aria-labelledby={`autobid-${auctionId}-title`}
      className="mt-4 rounded-xl border border-slate-200 bg-slate-50 p-4"
    >
      <h2 id={`autobid-${auctionId}-title`} className="flex items-center gap-2 text-base font-bold">
        <Bot aria-hidden className="h-5 w-5 text-amber-700" />
        {t('title')}
      </h2>
      {autoBid ? (
        <p className="mt-2 text-sm text-slate-800" role="status">
          {t('active', { left: autoBid.bidsLeft, placed: autoBid.placed })}
        </p>
      ) : (
        <p className="mt-1 text-sm text-slate-700">{t('hint')}</p>
      )}
      <FormComponent
        method="post"
        action={location.pathname}
        preventScrollReset
        className="mt-3 flex flex-wrap items-end gap-2"
      >
        <input type="hidden" name="intent" value={intent} />
        {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
        {autoBid ? null : (
          <div className="flex flex-col">
            <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
              {t('bidsLabel')}
            </label>
            <input
              id={inputId}
              name="bids"
              type="number"
              inputMode="numeric"
              min={1}
              max={AUTO_BID_MAX}
              step={1}
              required
              defaultValue={10}
              className="mt-1 w-28 rounded-md border border-slate-300 px-3 py-2 tabular-nums"
            />
          </div>
        )}
        <button
          type="submit"
          disabled={pending}
          className={`inline-flex items-center gap-2 rounded-lg px-4 py-2 font-semibold text-white shadow-sm disabled:cursor-not-allowed disabled:bg-slate-400 ${autoBid ? 'bg-slate-700 hover:bg-slate-800' : 'bg-amber-700 hover:bg-amber-800'}`}
        >
          {pending ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
          {autoBid ? t('stop') : t('start')}
        </button>
      </FormComponent>
    </section>
  )
}
