import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'

/** A window of up to 5 page numbers between first/prev and next/last, all plain links. */
export function pageWindow(page: number, totalPages: number, size = 5): number[] {
  const half = Math.floor(size / 2)
  const start = Math.max(1, Math.min(page - half, totalPages - size + 1))
  const end = Math.min(totalPages, start + size - 1)
  return Array.from({ length: end - start + 1 }, (_, i) => start + i)
}

export function Pager({
  page,
  totalPages,
  href,
}: {
  page: number
  totalPages: number
  href: (page: number) => string
}) {
  const { t } = useTranslation()
  if (totalPages <= 1) return null
  const item = 'min-w-10 rounded-md border px-3 py-2 text-center text-sm font-semibold'
  const link = `${item} border-slate-300 bg-white hover:bg-slate-50`
  const off = `${item} border-slate-200 bg-slate-100 text-slate-500`
  const nav = (to: number, label: string) =>
    to < 1 || to > totalPages || to === page ? (
      <span className={off} aria-disabled="true">
        {label}
      </span>
    ) : (
      <Link to={href(to)} className={link}>
        {label}
      </Link>
    )
  return (
    <nav
      aria-label={t('auctionsPage.pagination')}
      className="flex flex-wrap items-center justify-center gap-1"
    >
      {nav(1, t('auctionsPage.first'))}
      {nav(page - 1, t('auctionsPage.prev'))}
      {pageWindow(page, totalPages).map((n) =>
        n === page ? (
          <span
            key={n}
            aria-current="page"
            className={`${item} border-amber-600 bg-amber-700 text-white`}
          >
            {n}
          </span>
        ) : (
          <Link
            key={n}
            to={href(n)}
            className={link}
            aria-label={t('auctionsPage.page', { page: n })}
          >
            {n}
          </Link>
        ),
      )}
      {nav(page + 1, t('auctionsPage.next'))}
      {nav(totalPages, t('auctionsPage.last'))}
    </nav>
  )
}
