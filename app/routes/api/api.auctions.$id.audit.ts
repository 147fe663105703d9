import type { LoaderFunctionArgs } from '@remix-run/node'
import { readAuctionRecord, recordAfter } from '~/models/auction-record.server.ts'
import { apiError, json, translator } from '~/utils/api.server.ts'

// GET /api/auctions/{id}/audit: the auction's record of bids (docs/fair-play.md), from the bid
// after place `?after=` (0 by default), RECORD_PAGE_SIZE bids a page.

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await translator(request)
  const after = recordAfter(new URL(request.url))
  if (after === null) return apiError(400, t('api.invalid'))
  const id = params.id ?? ''
  const [record, state] = await Promise.all([
    readAuctionRecord(id, after),
    context.engine.getState(id),
  ])
  if (!record) return apiError(404, t('bidding.errors.auction_not_found'))
  return json({ ...record, status: state?.status ?? record.status })
}
