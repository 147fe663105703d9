import type { LoaderFunctionArgs } from '@remix-run/node'
import type { ReactNode } from 'react'
import { Link, useLoaderData } from '@remix-run/react'
import { i18nRoute } from '~/utils/i18n-route.ts'
import {
  Ban,
  Gavel,
  Lock,
  Medal,
  Scale,
  ShieldCheck,
  ShoppingCart,
  Sprout,
  Store,
  Timer,
  Trophy,
  Truck,
  UserCheck,
} from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import {
  Card,
  PAGES_NS,
  PageHero,
  PageSection,
  Rich,
  secondaryButton,
  TextList,
} from '~/components/static-page.tsx'
import { getSettings } from '~/models/settings.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'

// The auction rules (docs/rules.md#static-pages) with its constants; where the client's texts
// disagreed, docs/decisions/010-static-texts.md says which reading these rules state.
export async function loader({ request }: LoaderFunctionArgs) {
  const [t, settings] = await Promise.all([getFixedT(request, PAGES_NS), getSettings()])
  return {
    title: t('rules.title'),
    officeAddress: settings.contactAddress.trim(),
    // The win limit as it stands, and whether wins count per verified phone (its setting).
    winLimit: settings.winLimit,
    winsPerPhone: settings.freeBidsNeedPhone,
  }
}

const i18n = i18nRoute([PAGES_NS, 'orders'])
export const handle = i18n.handle
export const clientLoader = i18n.clientLoader

const groups = [
  { key: 'participation', icon: UserCheck },
  { key: 'bidding', icon: Timer },
  { key: 'winning', icon: Trophy },
] as const

const deliveries = [
  { key: 'pickup', icon: Store },
  { key: 'courier', icon: Truck },
  { key: 'regions', icon: Truck },
] as const

export default function AuctionRulesRoute() {
  const { t } = useTranslation(PAGES_NS)
  const { officeAddress, winLimit, winsPerPhone } = useLoaderData<typeof loader>()
  return (
    <div className="space-y-12">
      <PageHero icon={Scale} title={t('rules.title')} lead={<Rich k="rules.lead" />} />

      <PageSection id="rule-groups" title={t('rules.groupsTitle')} icon={Gavel}>
        <div className="grid gap-4 lg:grid-cols-3">
          {groups.map(({ key, icon: Icon }) => (
            <section key={key} aria-labelledby={`rules-${key}`}>
              <Card className="h-full">
                <h3 id={`rules-${key}`} className="flex items-center gap-2 text-lg font-semibold">
                  <Icon aria-hidden className="h-5 w-5 shrink-0 text-amber-600" />
                  {t(`rules.groups.${key}.title`)}
                </h3>
                <TextList k={`rules.groups.${key}.items`} className="mt-3" />
              </Card>
            </section>
          ))}
        </div>
      </PageSection>

      <FairPlayRules winLimit={winLimit} winsPerPhone={winsPerPhone} />

      <PageSection id="prohibited" title={t('rules.prohibitedTitle')} icon={Ban}>
        <Card>
          <p className="text-slate-700">{t('rules.prohibitedIntro')}</p>
          <TextList k="rules.prohibited" className="mt-3" />
          <p className="mt-4 rounded-lg bg-red-50 p-3 text-red-900">{t('rules.sanctions')}</p>
        </Card>
      </PageSection>

      <PageSection id="delivery" title={t('rules.deliveryTitle')} icon={Truck}>
        <ul className="grid gap-4 md:grid-cols-3">
          {deliveries.map(({ key, icon: Icon }) => (
            <li key={key}>
              <Card className="flex h-full flex-col">
                <Icon aria-hidden className="h-7 w-7 text-amber-600" />
                <h3 className="mt-3 text-lg font-semibold">{t(`rules.delivery.${key}.title`)}</h3>
                <dl className="mt-3 grid grid-cols-2 gap-3">
                  <div>
                    <dt className="text-sm text-slate-600">{t('rules.deliveryPrice')}</dt>
                    <dd className="font-semibold">{t(`rules.delivery.${key}.price`)}</dd>
                  </div>
                  <div>
                    <dt className="text-sm text-slate-600">{t('rules.deliveryTime')}</dt>
                    <dd className="font-semibold">{t(`rules.delivery.${key}.time`)}</dd>
                  </div>
                </dl>
                <p className="mt-3 text-slate-700">{t(`rules.delivery.${key}.text`)}</p>
                {key === 'pickup' && officeAddress ? (
                  <p className="mt-2 text-sm text-slate-700 [overflow-wrap:anywhere]">
                    {t('rules.officeAddress', { address: officeAddress })}
                  </p>
                ) : null}
              </Card>
            </li>
          ))}
        </ul>
        <p className="mt-4 text-slate-700">{t('rules.deliveryNote')}</p>
      </PageSection>

      <OrderRules />

      <Card className="flex flex-col items-start gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-slate-700">
          <Rich k="rules.moreText" />
        </p>
        <Link to="/support" className={`${secondaryButton} shrink-0`}>
          {t('rules.toSupport')}
        </Link>
      </Card>
    </div>
  )
}

/**
 * Beginner auctions, auctions closed to new bidders and the win limit, with the limit as it
 * stands (docs/decisions/082-fair-play-auction-settings.md).
 */
function FairPlayRules({ winLimit, winsPerPhone }: { winLimit: number; winsPerPhone: boolean }) {
  const { t } = useTranslation(PAGES_NS)
  return (
    <PageSection id="fair-play" title={t('rules.fairPlayTitle')} icon={ShieldCheck}>
      <div className="grid gap-4 lg:grid-cols-3">
        <FairPlayCard id="beginner" icon={Sprout} title={t('rules.fairPlay.beginnerTitle')}>
          <p>{t('rules.fairPlay.beginnerText')}</p>
        </FairPlayCard>
        <FairPlayCard id="locked" icon={Lock} title={t('rules.fairPlay.lockedTitle')}>
          <p>{t('rules.fairPlay.lockedText')}</p>
        </FairPlayCard>
        <FairPlayCard id="win-limit" icon={Medal} title={t('rules.fairPlay.winLimitTitle')}>
          <p>{t('rules.fairPlay.winLimitText')}</p>
          <p className="font-semibold text-slate-900">
            {winLimit > 0
              ? t('rules.fairPlay.winLimitNow', { count: winLimit })
              : t('rules.fairPlay.winLimitOff')}
          </p>
          {winLimit > 0 && winsPerPhone ? <p>{t('rules.fairPlay.winLimitPerPhone')}</p> : null}
        </FairPlayCard>
      </div>
    </PageSection>
  )
}

function FairPlayCard({
  id,
  icon: Icon,
  title,
  children,
}: {
  id: string
  icon: typeof Sprout
  title: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={`fair-play-${id}`}>
      <Card className="h-full">
        <h3 id={`fair-play-${id}`} className="flex items-center gap-2 text-lg font-semibold">
          <Icon aria-hidden className="h-5 w-5 shrink-0 text-amber-600" />
          {title}
        </h3>
        <div className="mt-3 space-y-2 text-slate-700">{children}</div>
      </Card>
    </section>
  )
}

/** Paying for a win, passing it on, and Buy It Now (docs/decisions/016 and 017). */
function OrderRules() {
  const { t } = useTranslation('orders')
  const items = t('rules.items', { returnObjects: true }) as unknown
  return (
    <PageSection id="orders" title={t('rules.title')} icon={ShoppingCart}>
      <Card>
        <ul className="list-disc space-y-2 pl-5 text-slate-700">
          {(Array.isArray(items) ? (items as string[]) : []).map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </Card>
    </PageSection>
  )
}

export { ErrorBoundary, headers, meta } from '~/components/static-route.ts'
