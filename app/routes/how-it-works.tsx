import type { LoaderFunctionArgs } from '@remix-run/node'
import { Link } from '@remix-run/react'
import {
  Calculator,
  CircleHelp,
  Coins,
  Gavel,
  Lightbulb,
  ListChecks,
  Trophy,
  UserPlus,
} from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import {
  Card,
  FaqList,
  PAGES_NS,
  PageHero,
  PageSection,
  primaryButton,
  Rich,
  secondaryButton,
  TextList,
} from '~/components/static-page.tsx'
import { getFixedT } from '~/i18n/i18next.server.ts'

// How it works (docs/rules.md#static-pages): the rules as the engine applies them
// (docs/decisions/010-static-texts.md).
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request, PAGES_NS)
  return { title: t('howItWorks.title') }
}

const steps = [
  { key: 'register', icon: UserPlus },
  { key: 'buy', icon: Coins },
  { key: 'win', icon: Trophy },
] as const

const exampleRows = ['start', 'bids', 'final', 'retail'] as const

export default function HowItWorksRoute() {
  const { t } = useTranslation(PAGES_NS)
  return (
    <div className="space-y-12">
      <PageHero icon={Gavel} title={t('howItWorks.title')} lead={t('howItWorks.lead')}>
        <WaysOn />
      </PageHero>

      <PageSection id="steps" title={t('howItWorks.stepsTitle')}>
        <ol className="grid gap-4 md:grid-cols-3">
          {steps.map(({ key, icon: Icon }, index) => (
            <li key={key}>
              <Card className="h-full">
                <div className="flex items-center gap-3">
                  <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-slate-900 font-bold text-white">
                    {index + 1}
                  </span>
                  <Icon aria-hidden className="h-6 w-6 text-amber-600" />
                </div>
                <h3 className="mt-3 text-lg font-semibold">{t(`howItWorks.steps.${key}.title`)}</h3>
                <p className="mt-1 text-slate-700">
                  <Rich k={`howItWorks.steps.${key}.text`} />
                </p>
              </Card>
            </li>
          ))}
        </ol>
      </PageSection>

      <PageSection id="rules" title={t('howItWorks.rulesTitle')} icon={ListChecks}>
        <Card>
          <TextList k="howItWorks.rules" />
        </Card>
      </PageSection>

      <PageSection id="example" title={t('howItWorks.example.title')} icon={Calculator}>
        <Card className="space-y-4">
          <p className="text-slate-700">{t('howItWorks.example.intro')}</p>
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
            {exampleRows.map((row) => (
              <div key={row} className="rounded-lg bg-amber-50 p-3">
                <dt className="text-sm text-slate-600">{t(`howItWorks.example.${row}.label`)}</dt>
                <dd className="text-lg font-bold tabular-nums text-slate-900 sm:text-xl">
                  {t(`howItWorks.example.${row}.value`)}
                </dd>
              </div>
            ))}
          </dl>
          <p className="text-slate-700">
            <Rich k="howItWorks.example.winnerPays" />
          </p>
          <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-slate-800">
            <Rich k="howItWorks.example.honest" />
          </p>
        </Card>
      </PageSection>

      <PageSection id="tips" title={t('howItWorks.tipsTitle')} icon={Lightbulb}>
        <Card>
          <TextList k="howItWorks.tips" />
        </Card>
      </PageSection>

      <PageSection id="faq" title={t('shared.faqTitle')} icon={CircleHelp}>
        <FaqList k="howItWorks.faq" />
      </PageSection>

      <Card className="flex flex-col items-start gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-lg font-semibold">{t('howItWorks.ctaText')}</p>
        <div className="flex shrink-0 flex-wrap gap-3">
          <WaysOn />
        </div>
      </Card>
    </div>
  )
}

/** Where the page leads, at its top and its end: the auctions, or buying bids. */
function WaysOn() {
  const { t } = useTranslation(PAGES_NS)
  return (
    <>
      <Link to="/auctions" className={primaryButton}>
        {t('howItWorks.toAuctions')}
      </Link>
      <Link to="/topup" className={secondaryButton}>
        {t('howItWorks.toTopup')}
      </Link>
    </>
  )
}

export { clientLoader, ErrorBoundary, handle, headers, meta } from '~/components/static-route.ts'
