import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { RecordHead } from '~/types/record.ts'

/**
 * Under an auction's bid history: the link to its record of bids and the record's head after the
 * newest bid heard of (docs/fair-play.md), live with each update, for a bidder to keep and check.
 */
export function RecordHeadLine({ slug, record }: { slug: string; record: RecordHead | null }) {
  const { t } = useTranslation()
  return (
    <div className="mt-3 space-y-1 text-sm">
      <Link to={`/auction/${encodeURIComponent(slug)}/audit`} className="underline">
        {t('auction.recordLink')}
      </Link>
      {record && record.seq > 0 ? (
        <p className="text-slate-700">
          {t('auction.recordHead', { seq: record.seq })}{' '}
          <code className="break-all text-xs" data-record-head={record.seq}>
            {record.head}
          </code>
        </p>
      ) : null}
    </div>
  )
}
