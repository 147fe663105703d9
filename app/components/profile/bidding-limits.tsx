import { Form } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Button } from '~/components/ui/button.tsx'
import { Field, SelectField } from '~/components/ui/field.tsx'
import { Panel } from '~/components/ui/panel.tsx'
import { formatDateTime } from '~/utils/dates.ts'
import {
  DAILY_BID_LIMIT_MAX,
  SELF_EXCLUDE_CHOICES,
  SELF_EXCLUDE_DAYS_MAX,
} from '~/validation/limits.ts'
import type { LimitsView } from '~/types/limits.ts'

/** The errors of a refused limits form: i18n keys by field. */
export type LimitsErrors = Partial<Record<'dailyBidLimit' | 'selfExcludeDays' | '', string[]>>

/**
 * The limits a person sets on their profile (docs/rules.md#limits-a-bidder-sets): a daily bid
 * limit and a break from bidding, each its own plain form (intent=limits), without JavaScript too.
 */
export function BiddingLimits({ limits, errors }: { limits: LimitsView; errors?: LimitsErrors }) {
  const { t } = useTranslation()
  const { pending } = limits
  const limitText =
    limits.dailyBidLimit === null
      ? t('limits.none')
      : t('limits.todayOf', { placed: limits.bidsToday, limit: limits.dailyBidLimit })
  return (
    <Panel id="limits-title" heading={t('limits.title')}>
      <p className="mb-4 text-sm text-slate-600">{t('limits.intro')}</p>
      <dl className="mb-4 grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-600">{t('limits.daily')}</dt>
          <dd className="font-semibold" data-limit-daily>
            {limitText}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('limits.break')}</dt>
          <dd className="font-semibold" data-limit-break>
            {limits.selfExcludedUntil
              ? t('limits.until', { date: formatDateTime(limits.selfExcludedUntil) })
              : t('limits.noBreak')}
          </dd>
        </div>
      </dl>
      {pending ? (
        <p className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-limit-pending>
          {t('limits.pending', {
            date: formatDateTime(pending.appliesAt),
            limit:
              pending.dailyBidLimit === null ? t('limits.none') : String(pending.dailyBidLimit),
            until: pending.selfExcludedUntil
              ? t('limits.until', { date: formatDateTime(pending.selfExcludedUntil) })
              : t('limits.noBreak'),
          })}
        </p>
      ) : null}
      <div className="grid gap-6 sm:grid-cols-2">
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="limits" />
          <Field
            id="dailyBidLimit"
            name="dailyBidLimit"
            type="number"
            inputMode="numeric"
            min={1}
            max={DAILY_BID_LIMIT_MAX}
            label={t('limits.dailyLabel')}
            hint={t('limits.dailyHint')}
            defaultValue={limits.dailyBidLimit ?? ''}
            errors={errors?.dailyBidLimit}
          />
          <Button variant="outline">{t('limits.saveLimit')}</Button>
        </Form>
        <div className="space-y-3">
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="limits" />
            <SelectField
              id="selfExcludeDays"
              name="selfExcludeDays"
              label={t('limits.breakLabel')}
              defaultValue="7"
              error={errors?.selfExcludeDays?.[0]}
            >
              {SELF_EXCLUDE_CHOICES.map((days) => (
                <option key={days} value={days}>
                  {days === SELF_EXCLUDE_DAYS_MAX
                    ? t('limits.sixMonths')
                    : t('limits.days', { count: days })}
                </option>
              ))}
            </SelectField>
            <Button variant="outline">{t('limits.takeBreak')}</Button>
          </Form>
          {limits.selfExcludedUntil ? (
            <Form method="post">
              <input type="hidden" name="intent" value="limits" />
              <input type="hidden" name="selfExcludeDays" value="0" />
              <Button variant="clear" size="compact">
                {t('limits.endBreak')}
              </Button>
            </Form>
          ) : null}
        </div>
      </div>
      <p className="mt-4 text-xs text-slate-600">{t('limits.delay')}</p>
    </Panel>
  )
}
