import { Link } from '@remix-run/react'
import { ImageOff } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import type { WonAuction } from '~/models/account.server.ts'
import { formatDate } from '~/utils/dates.ts'
import { useFormatMoney } from '~/utils/hooks.ts'
import { ProductImage } from '~/components/product-image.tsx'
import { CARD_IMAGE } from '~/utils/product-image.ts'
import { EmptyNote } from '~/components/ui/panel.tsx'

/** The auctions the user won, newest first, each with its final price and a link to it. */
export function WonAuctions({ won }: { won: WonAuction[] }) {
  const { t } = useTranslation()
  const money = useFormatMoney()
  return (
    <section aria-labelledby="won-title">
      <h2 id="won-title" className="mb-3 text-xl font-semibold">
        {t('profile.won.title')}
      </h2>
      {won.length === 0 ? (
        <EmptyNote look="page">{t('profile.won.empty')}</EmptyNote>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {won.map((auction) => (
            <li
              key={auction.id}
              className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
            >
              {auction.imageUrl ? (
                <ProductImage
                  url={auction.imageUrl}
                  alt=""
                  {...CARD_IMAGE}
                  className="aspect-[4/3] w-full object-cover"
                />
              ) : (
                <div className="flex aspect-[4/3] items-center justify-center bg-slate-100 text-slate-400">
                  <ImageOff aria-hidden className="h-8 w-8" />
                </div>
              )}
              <div className="space-y-1 p-3">
                <h3 className="font-semibold">{auction.title}</h3>
                {auction.endTime ? (
                  <p className="text-sm text-slate-600">
                    {t('profile.won.date', { date: formatDate(auction.endTime) })}
                  </p>
                ) : null}
                <p className="text-sm">
                  {t('profile.won.price')}:{' '}
                  <strong className="text-emerald-700">{money(auction.finalPrice)}</strong>
                </p>
                <Link
                  to={`/auction/${auction.slug}`}
                  className="inline-block pt-1 text-sm font-semibold text-amber-800 underline"
                >
                  {t('profile.won.view')}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
