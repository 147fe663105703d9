import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { StatusBadge } from '~/components/auction/status-badge.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { buttonClass } from '~/components/ui/button.tsx'
import { EmptyNote, Panel, StatList } from '~/components/ui/panel.tsx'
import { Table } from '~/components/ui/table.tsx'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { useTranslation } from '~/i18n/use-translation.ts'
import { readAuctionRecord, recordAfter } from '~/models/auction-record.server.ts'
import { getAuctionRowBySlug } from '~/models/auction-rows.server.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { titleMeta } from '~/utils/meta.ts'

// /auction/{slug}/audit: the auction's record of bids as a page (docs/fair-play.md), 500 bids a
// page from `?after=`, with its CSV (auction.$slug_.audit[.]csv.ts) and its JSON (the API's).

export const handle = { i18n: ['record'] }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getFixedT(request, ['record', 'common'])
  const row = await getAuctionRowBySlug(context.engine, params.slug ?? '')
  // A place that is none (a hand-made address) shows the record from its start.
  const after = recordAfter(new URL(request.url)) ?? 0
  const [record, state] = row
    ? await Promise.all([readAuctionRecord(row.id, after), context.engine.getState(row.id)])
    : [null, null]
  if (!row || !record) {
    return data({ found: null, title: t('common:auction.notFoundTitle') } as const, { status: 404 })
  }
  return {
    found: {
      auction: { title: row.title, slug: row.slug, status: state?.status ?? record.status },
      record,
      after,
    },
    title: t('title', { title: row.title }),
  }
}

export const meta = titleMeta

/** A record's time as UTC, to the millisecond, readable: 2026-12-02 10:00:03.125. */
const utc = (iso: string) => iso.replace('T', ' ').replace('Z', '')

export default function AuctionRecordRoute() {
  const { found } = useLoaderData<typeof loader>()
  const { t } = useTranslation(['record', 'common'])
  const money = useFormatMoney()
  if (!found) {
    return (
      <section className="space-y-4">
        <h1 className="text-2xl font-bold">{t('common:auction.notFoundTitle')}</h1>
        <Link to="/" className={buttonClass({ variant: 'outline' })}>
          {t('common:auction.backHome')}
        </Link>
      </section>
    )
  }
  const { auction, record, after } = found
  const base = `/auction/${encodeURIComponent(auction.slug)}`
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <p className="text-sm text-slate-600">
          <Link to={base} className="underline">
            {t('back')}
          </Link>
        </p>
        <h1 className="text-2xl font-bold sm:text-3xl">{t('heading')}</h1>
        <p className="flex flex-wrap items-center gap-2 text-lg">
          <span>{auction.title}</span>
          <StatusBadge status={auction.status} />
        </p>
      </div>
      <StatList
        className="grid gap-3 sm:grid-cols-3"
        items={[
          [t('total'), record.total],
          [t('startTime'), utc(record.startTime)],
          [
            t('auctionId'),
            <code key="id" className="break-all text-sm">
              {record.auctionId}
            </code>,
          ],
        ]}
      />
      <dl className="space-y-2 text-sm">
        {(['head', 'genesis'] as const).map((name) => (
          <div key={name}>
            <dt className="font-semibold">{t(name)}</dt>
            <dd>
              <code className="break-all">{record[name]}</code>
            </dd>
          </div>
        ))}
      </dl>
      <p className="flex flex-wrap gap-3">
        <a href={`${base}/audit.csv`} download className={buttonClass()}>
          {t('download')}
        </a>
        <a
          href={`/api/auctions/${record.auctionId}/audit`}
          className={buttonClass({ variant: 'outline' })}
        >
          {t('json')}
        </a>
      </p>
      <Panel id="record-bids" heading={t('caption')}>
        {record.bids.length === 0 ? (
          <EmptyNote look="inset">{t('empty')}</EmptyNote>
        ) : (
          <Table
            labelledBy="record-bids"
            look="ruled"
            width="md"
            columns={[
              { label: t('columns.seq'), numeric: true },
              t('columns.at'),
              { label: t('columns.amount'), numeric: true },
              t('columns.bidder'),
              t('columns.kind'),
              t('columns.hash'),
            ]}
          >
            {record.bids.map((bid) => (
              <tr key={bid.seq}>
                <td className="py-2 pr-3 text-right tabular-nums">{bid.seq}</td>
                <td className="py-2 pr-3 whitespace-nowrap tabular-nums">{utc(bid.at)}</td>
                <td className="py-2 pr-3 text-right whitespace-nowrap tabular-nums">
                  {money(Math.round(bid.amount * 100))}
                </td>
                <td className="py-2 pr-3">{bid.bidder ?? t('noName')}</td>
                <td className="py-2 pr-3">{t(`kinds.${bid.kind}`)}</td>
                <td className="py-2">
                  <code className="break-all text-xs">{bid.hash}</code>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <nav className="mt-4 flex flex-wrap gap-3" aria-label={t('caption')}>
          {after > 0 ? (
            <Link to={`${base}/audit`} className={buttonClass({ variant: 'outline' })}>
              {t('first')}
            </Link>
          ) : null}
          {record.next !== null ? (
            <Link
              to={`${base}/audit?after=${record.next}`}
              className={buttonClass({ variant: 'outline' })}
            >
              {t('next')}
            </Link>
          ) : null}
        </nav>
      </Panel>
      <Panel
        id="record-about"
        heading={t('about')}
        look="space-y-2 text-sm text-slate-700"
        headingClassName="text-lg font-semibold text-slate-900"
      >
        <p>{t('intro')}</p>
        <p>{t('proves')}</p>
        <p>{t('provesNot')}</p>
        <p>{t('rules')}</p>
      </Panel>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
