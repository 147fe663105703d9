// Small pieces the admin dashboard's forms share.

/** Keys of the "admin" namespace need it where `Field` (default namespace) translates them. */
export const adminErrorKeys = (errors?: string[]) =>
  errors?.map((key) => (key.startsWith('validation.') ? key : `admin:${key}`))

/**
 * Conform reads a preprocessed checkbox or defaulted field as required, which would block a
 * form the browser checks without JavaScript; `names` are made optional again.
 */
export function notRequired<T extends Record<string, { required?: boolean }>>(
  constraint: T,
  names: string[],
) {
  return Object.fromEntries(
    Object.entries(constraint).map(([name, rule]) => [
      name,
      names.includes(name) ? { ...rule, required: false } : rule,
    ]),
  ) as T
}
