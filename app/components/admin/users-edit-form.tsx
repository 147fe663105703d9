import { getFormProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AdminField } from '~/components/admin/admin-field.tsx'
import { adminErrorKeys } from '~/components/admin/form-helpers.ts'
import { z } from 'zod'
import { FormError, SelectField } from '~/components/ui/field.tsx'
import {
  balanceDeltaSchema,
  idempotencyKeySchema,
  userEditFields,
} from '~/validation/admin-users.ts'
import { emailSchema, PHONE_PREFIX, usernameSchema } from '~/validation/user.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { FormActions } from '~/components/ui/form-actions.tsx'
import type { UserView } from '~/models/user-view.server.ts'

export type EditableUser = Pick<
  UserView,
  'id' | 'username' | 'firstName' | 'lastName' | 'email' | 'phone' | 'bidBalance' | 'role'
>

/**
 * The page's edit form posts every field, so here an empty field means "cleared" (names, phone)
 * rather than the API's "unchanged"; username and email cannot be empty. The balance is not
 * written as a value: the admin adds or takes away bids (`bidBalanceDelta`, empty for no change)
 * with a reason, applied to the balance as it is when saved (docs/rules.md#admin-users).
 */
export const userEditFormSchema = userEditFields
  .omit({ bidBalanceAdjustment: true, bidBalance: true, expectedBidBalance: true })
  .extend({
    intent: z.literal('edit'),
    id: z.string().min(1).max(64),
    idempotencyKey: idempotencyKeySchema,
    username: usernameSchema,
    email: emailSchema,
    firstName: userEditFields.shape.firstName.transform((value) => value ?? null),
    lastName: userEditFields.shape.lastName.transform((value) => value ?? null),
    phone: userEditFields.shape.phone.transform((value) => value ?? null),
    bidBalanceDelta: balanceDeltaSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.bidBalanceDelta !== undefined && value.bidBalanceReason === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['bidBalanceReason'],
        message: 'errors.balanceReason',
      })
    }
  })

export function UserEditForm({
  user,
  idempotencyKey,
  lastResult,
  closeTo,
}: {
  user: EditableUser
  /** Makes the balance change of this form apply once however often it is sent. */
  idempotencyKey: string
  lastResult?: SubmissionResult<string[]>
  closeTo: string
}) {
  const { t } = useTranslation(['admin-users', 'admin'])
  const [form, fields] = useForm({
    id: `edit-user-${user.id}`,
    lastResult,
    constraint: getZodConstraint(userEditFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      username: user.username,
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      email: user.email,
      phone: user.phone ?? '',
      role: user.role,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: userEditFormSchema }),
  })
  const saving = useIsPending({ intent: 'edit', state: 'submitting' })
  const roleError = adminErrorKeys(fields.role.errors)?.[0]
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="edit" />
      <input type="hidden" name="id" value={user.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <FormError errors={adminErrorKeys(form.errors)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <AdminField meta={fields.username} label={`${t('edit.username')} *`} />
        <AdminField meta={fields.email} type="email" label={`${t('edit.email')} *`} />
        <AdminField meta={fields.firstName} label={t('edit.firstName')} />
        <AdminField meta={fields.lastName} label={t('edit.lastName')} />
        <AdminField
          meta={fields.phone}
          type="tel"
          label={t('edit.phone')}
          inputMode="tel"
          placeholder={`${PHONE_PREFIX}XXXXXXXXX`}
          hint={t('edit.phoneHint')}
        />
        <SelectField label={t('edit.role')} error={roleError} {...getSelectProps(fields.role)}>
          <option value="user">{t('roles.user')}</option>
          <option value="admin">{t('roles.admin')}</option>
        </SelectField>
      </div>
      <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-medium text-slate-800">{t('edit.bidBalance')}</legend>
        <p className="text-sm text-slate-700">
          {t('edit.bidBalanceNow', { count: user.bidBalance })}
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <AdminField
            meta={fields.bidBalanceDelta}
            label={t('edit.bidBalanceDelta')}
            hint={t('edit.bidBalanceDeltaHint')}
          />
          <AdminField
            meta={fields.bidBalanceReason}
            label={t('edit.bidBalanceReason')}
            hint={t('edit.bidBalanceReasonHint')}
          />
        </div>
      </fieldset>
      <FormActions
        cancelTo={closeTo}
        cancelLabel={t('edit.cancel')}
        saveLabel={t('edit.save')}
        saving={saving}
      />
    </Form>
  )
}
