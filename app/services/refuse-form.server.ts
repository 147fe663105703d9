import type { SubmissionResult } from '@conform-to/react'
import { data } from '@remix-run/node'
import { createToastHeaders } from '~/services/toast.server.ts'

// A refused form post (docs/decisions/032-form-errors-inline.md): the errors go back to the form,
// which shows each at its field, and a toast says what failed and the first reason.

type Result = SubmissionResult<string[]>

/** The first error of a form's result (a field's or the form's), if any. */
export function firstError(result: Result) {
  return Object.values(result.error ?? {})
    .flat()
    .find(Boolean)
}

/**
 * Answers a refused form with `status`: `{ result }` for the form (plus `extra`, which may
 * replace it), and a toast titled `title` whose text is the first error through `text` (the
 * title again when the result holds none).
 */
export async function refuseForm<Extra extends object = object>(
  result: Result,
  {
    status,
    title,
    text,
    extra,
  }: { status: number; title: string; text: (key: string) => string; extra?: Extra },
) {
  const first = firstError(result)
  const headers = await createToastHeaders({
    type: 'error',
    title,
    description: first ? text(first) : title,
  })
  const body = { result, ...extra } as unknown as Omit<{ result: Result }, keyof Extra> & Extra
  return data(body, { status, headers })
}
