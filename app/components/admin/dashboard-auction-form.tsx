import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AdminField } from '~/components/admin/admin-field.tsx'
import { FairPlayFields } from '~/components/admin/fair-play-fields.tsx'
import type { z } from 'zod'
import { adminErrorKeys } from '~/components/admin/form-helpers.ts'
import { ControlField, FormError, controlClass } from '~/components/ui/field.tsx'
import type { EditableAuction } from '~/models/admin-dashboard.server.ts'
import { TIME_ZONE_OFFSET } from '~/utils/dates.ts'
import { toMajor } from '~/utils/money.ts'
import { auctionCreateSchema, auctionUpdateSchema } from '~/validation/admin-auctions.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { FormActions } from '~/components/ui/form-actions.tsx'

// The create and edit forms of an auction: one form, two routes (admin._dashboard.auctions.new
// and admin._dashboard.auctions.$id.edit), validated by the same rules as /api/admin/auctions.

/**
 * The browser's own checks: only what the rules require. (Conform reads the shared schemas'
 * preprocessed optional fields and checkboxes as required, which would block a form without JS.)
 */
const auctionConstraint = {
  title: { required: true, maxLength: 200 },
  description: { maxLength: 5000 },
  imageUrl: { maxLength: 2000 },
  retailPrice: { required: true },
  startTime: { required: true },
  condition: { maxLength: 100 },
  category: { maxLength: 100 },
}

const offsetMs = (() => {
  const [, sign, hours, minutes] = /^([+-])(\d{2}):(\d{2})$/.exec(TIME_ZONE_OFFSET)!
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000
})()

/**
 * An instant -> a `datetime-local` value in Bishkek time. Seconds (and milliseconds when there
 * are any) are kept: the server compares the start exactly to tell whether it moved.
 */
export function toBishkekInput(iso: string) {
  const local = new Date(Date.parse(iso) + offsetMs).toISOString()
  return local.endsWith('.000Z') ? local.slice(0, 19) : local.slice(0, 23)
}

const somText = (minor: number | null) => (minor === null ? '' : String(toMajor(minor)))

/** Posts to `action` (the route it belongs to): an auction's fields, in som and Bishkek time. */
export function AuctionForm({
  mode,
  auction,
  action,
  lastResult,
  closeTo,
}: {
  mode: 'create' | 'edit'
  auction?: EditableAuction
  action: string
  lastResult?: SubmissionResult<string[]>
  closeTo: string
}) {
  const { t } = useTranslation(['admin-dashboard', 'admin'])
  const schema = mode === 'create' ? auctionCreateSchema : auctionUpdateSchema
  // The fields of both forms (editing keeps an auction's kind, so it has no isBidPackage).
  // `image` is the uploaded file; the action keeps it and puts its address in `imageUrl`.
  const [form, fields] = useForm<z.input<typeof auctionCreateSchema> & { image?: File }>({
    id: mode === 'create' ? 'create-auction' : `edit-auction-${auction?.id ?? ''}`,
    lastResult,
    constraint: auctionConstraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: auction
      ? {
          title: auction.title,
          description: auction.description,
          imageUrl: auction.imageUrl ?? '',
          retailPrice: somText(auction.retailPrice),
          startTime: toBishkekInput(auction.startTime),
          condition: auction.condition ?? '',
          category: auction.category ?? '',
          estimatedValue: somText(auction.estimatedValue),
          featured: auction.featured ? 'on' : '',
          packageBids: auction.packageBids === null ? '' : String(auction.packageBids),
          beginnerOnly: auction.beginnerOnly ? 'true' : 'false',
          lockAfterMinutes:
            auction.lockAfterMinutes === null ? '' : String(auction.lockAfterMinutes),
        }
      : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const saving = useIsPending({ formAction: action, state: 'submitting' })
  const live = auction?.status === 'live'
  const descriptionError = adminErrorKeys(fields.description.errors)?.[0]
  return (
    <Form
      method="post"
      action={action}
      encType="multipart/form-data"
      preventScrollReset
      {...getFormProps(form)}
      className="space-y-4"
    >
      <FormError errors={adminErrorKeys(form.errors)} />
      <p className="text-sm text-slate-600">{t('form.requiredNote')}</p>
      <AdminField meta={fields.title} label={`${t('form.title')} *`} />
      <ControlField
        id={fields.description.id}
        label={t('form.description')}
        error={descriptionError}
      >
        <textarea
          {...getTextareaProps(fields.description)}
          rows={3}
          aria-describedby={descriptionError ? `${fields.description.id}-error` : undefined}
          className={controlClass}
        />
      </ControlField>
      <AdminField meta={fields.imageUrl} label={t('form.imageUrl')} placeholder="https://" />
      <AdminField
        meta={fields.image}
        type="file"
        label={t('form.image')}
        hint={t('form.imageHint')}
        accept="image/jpeg,image/png,image/webp"
      />
      <div className="grid gap-4 sm:grid-cols-2 [&>*]:min-w-0">
        <AdminField
          meta={fields.retailPrice}
          label={`${t('form.retailPrice')} *`}
          inputMode="decimal"
        />
        <AdminField
          meta={fields.estimatedValue}
          label={t('form.estimatedValue')}
          inputMode="decimal"
        />
        <AdminField
          meta={fields.startTime}
          type="datetime-local"
          label={`${t('form.startTime')} *`}
          step={1}
          readOnly={live}
          hint={live ? t('form.startTimeLive') : t('form.startTimeHint')}
        />
        <AdminField meta={fields.category} label={t('form.category')} />
        <AdminField meta={fields.condition} label={t('form.condition')} />
        {mode === 'create' || auction?.isBidPackage ? (
          // Editing keeps the kind: only a bid package's form has it.
          <AdminField
            meta={fields.packageBids}
            label={t('form.packageBids')}
            hint={t('form.packageBidsHint')}
            inputMode="numeric"
          />
        ) : null}
      </div>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <label className="flex items-center gap-2">
          <input
            {...getInputProps(fields.featured, { type: 'checkbox' })}
            className="h-4 w-4 accent-amber-700"
          />
          {t('form.featured')}
        </label>
        {mode === 'create' ? (
          <label className="flex items-center gap-2">
            <input
              {...getInputProps(fields.isBidPackage, { type: 'checkbox' })}
              className="h-4 w-4 accent-amber-700"
            />
            {t('form.isBidPackage')}
          </label>
        ) : null}
      </div>
      <FairPlayFields
        beginnerOnly={fields.beginnerOnly}
        lockAfterMinutes={fields.lockAfterMinutes}
        started={auction !== undefined && auction.status !== 'upcoming'}
      />
      <FormActions
        cancelTo={closeTo}
        cancelLabel={t('form.cancel')}
        saveLabel={mode === 'create' ? t('form.create') : t('form.save')}
        saving={saving}
      />
    </Form>
  )
}
