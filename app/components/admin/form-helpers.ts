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

export const submitButtonClass =
  'flex items-center justify-center gap-2 rounded-md bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2 disabled:opacity-70'
