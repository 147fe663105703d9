import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { Field, FormError, SelectField } from '~/components/ui/field.tsx'
import { balanceDeltaSchema, idempotencyKeySchema, userEditFields } from '~/validation/admin.ts'
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

/** Validation keys of the "admin" namespace need their namespace where `Field` translates them. */
export const errorKeys = (errors?: string[]) =>
  errors?.map((key) => (key.startsWith('validation.') ? key : `admin:${key}`))

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
  const roleError = errorKeys(fields.role.errors)?.[0]
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="edit" />
      <input type="hidden" name="id" value={user.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <FormError errors={errorKeys(form.errors)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={`${t('edit.username')} *`}
          autoComplete="off"
          errors={errorKeys(fields.username.errors)}
          {...getInputProps(fields.username, { type: 'text' })}
        />
        <Field
          label={`${t('edit.email')} *`}
          autoComplete="off"
          errors={errorKeys(fields.email.errors)}
          {...getInputProps(fields.email, { type: 'email' })}
        />
        <Field
          label={t('edit.firstName')}
          autoComplete="off"
          errors={errorKeys(fields.firstName.errors)}
          {...getInputProps(fields.firstName, { type: 'text' })}
        />
        <Field
          label={t('edit.lastName')}
          autoComplete="off"
          errors={errorKeys(fields.lastName.errors)}
          {...getInputProps(fields.lastName, { type: 'text' })}
        />
        <Field
          label={t('edit.phone')}
          autoComplete="off"
          inputMode="tel"
          placeholder={`${PHONE_PREFIX}XXXXXXXXX`}
          hint={t('edit.phoneHint')}
          errors={errorKeys(fields.phone.errors)}
          {...getInputProps(fields.phone, { type: 'tel' })}
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
          <Field
            label={t('edit.bidBalanceDelta')}
            autoComplete="off"
            hint={t('edit.bidBalanceDeltaHint')}
            errors={errorKeys(fields.bidBalanceDelta.errors)}
            {...getInputProps(fields.bidBalanceDelta, { type: 'text' })}
          />
          <Field
            label={t('edit.bidBalanceReason')}
            autoComplete="off"
            hint={t('edit.bidBalanceReasonHint')}
            errors={errorKeys(fields.bidBalanceReason.errors)}
            {...getInputProps(fields.bidBalanceReason, { type: 'text' })}
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
