import type { LoaderFunctionArgs } from '@remix-run/node'
import { readAuctionRecord } from '~/models/auction-record.server.ts'
import { getAuctionRowBySlug } from '~/models/auction-rows.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { PRIVATE } from '~/utils/cache-control.ts'

// /auction/{slug}/audit.csv: the auction's whole record of bids (docs/fair-play.md) as CSV
// (RFC 4180: a header line, then one line a bid, text fields quoted), for a spreadsheet or a
// check of one's own. The auction's id, start and head are on the record's page and in its JSON.

const COLUMNS = ['seq', 'at', 'amount', 'bidder', 'kind', 'hash'] as const

/** A text field, quoted, with its quotes doubled. */
const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const row = await getAuctionRowBySlug(context.engine, params.slug ?? '')
  const record = row ? await readAuctionRecord(row.id, 0, Number.POSITIVE_INFINITY) : null
  if (!row || !record) {
    const t = await getFixedT(request)
    return new Response(t('auction.notFoundTitle'), {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  const lines = [
    COLUMNS.join(','),
    ...record.bids.map((bid) =>
      [bid.seq, bid.at, bid.amount.toFixed(2), quoted(bid.bidder ?? ''), bid.kind, bid.hash].join(
        ',',
      ),
    ),
  ]
  return new Response(`${lines.join('\r\n')}\r\n`, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="record-${record.auctionId}.csv"`,
      'Cache-Control': PRIVATE,
    },
  })
}
