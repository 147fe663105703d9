import { getInputProps, type FieldMetadata } from '@conform-to/react'
import type { ComponentProps, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Alert } from '~/components/ui/alert.tsx'

/** The look of every text input, select and textarea of a form (red while invalid). */
export const controlBase =
  'rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-amber-500 focus:outline-none focus:ring-2 focus:ring-amber-200 aria-[invalid]:border-red-500'
/** The same, as wide as its field (most controls). */
export const controlClass = `w-full ${controlBase}`

/** A labelled input with its error (an i18n key) announced to screen readers. */
export function Field({
  id,
  label,
  errors,
  hint,
  status,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  id: string
  label: string
  errors?: string[]
  hint?: ReactNode
  status?: ReactNode
}) {
  const { t } = useTranslation()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const error = errors?.[0]
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={
            [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
          }
          className={controlClass}
          {...input}
        />
        {status ? (
          <span className="absolute inset-y-0 right-2 flex items-center">{status}</span>
        ) : null}
      </div>
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700" role="alert">
          {t(error)}
        </p>
      ) : null}
    </div>
  )
}

type InputType = Exclude<Parameters<typeof getInputProps>[1]['type'], 'checkbox' | 'radio'>

/**
 * A `Field` for a field of a Conform form (`meta`): the input's name, id, value, constraints and
 * aria state from Conform (`getInputProps`), its errors through `keys` (the namespace of an
 * admin form's keys, `adminErrorKeys`).
 */
export function InputField({
  meta,
  type = 'text',
  keys,
  ...props
}: Omit<ComponentProps<typeof Field>, 'id' | 'errors' | 'type'> & {
  meta: FieldMetadata<unknown>
  type?: InputType
  keys?: (errors?: string[]) => string[] | undefined
}) {
  return (
    <Field
      errors={keys ? keys(meta.errors) : meta.errors}
      {...props}
      {...getInputProps(meta, { type })}
    />
  )
}

/** A label above a control of its own (a select, a textarea), with its translated error. */
export function ControlField({
  id,
  label,
  error,
  wide,
  children,
}: {
  id: string
  label: string
  error?: string
  wide?: boolean
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <div className={wide ? 'space-y-1 sm:col-span-2' : 'space-y-1'}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {t(error)}
        </p>
      ) : null}
    </div>
  )
}

/** A labelled select with its error (an i18n key) announced to screen readers. */
export function SelectField({
  label,
  error,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { id: string; label: string; error?: string }) {
  return (
    <ControlField id={select.id} label={label} error={error}>
      <select
        {...select}
        aria-describedby={error ? `${select.id}-error` : undefined}
        className={controlClass}
      >
        {children}
      </select>
    </ControlField>
  )
}

export function FormError({ errors }: { errors?: string[] }) {
  const { t } = useTranslation()
  if (!errors?.length) return null
  return <Alert>{t(errors[0]!)}</Alert>
}
