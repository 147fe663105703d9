import type { ComponentProps } from 'react'
import { adminErrorKeys } from '~/components/admin/form-helpers.ts'
import { InputField } from '~/components/ui/field.tsx'

/**
 * An input of an admin form (`InputField`): its errors are keys of the "admin" namespace, and
 * the browser does not fill it in from the admin's own details.
 */
export function AdminField(props: Omit<ComponentProps<typeof InputField>, 'keys'>) {
  return <InputField autoComplete="off" keys={adminErrorKeys} {...props} />
}
