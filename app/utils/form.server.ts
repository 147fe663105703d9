import { data } from '@remix-run/node'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { json } from '~/utils/api.server.ts'
import { BodyTooLarge, MAX_FORM_BYTES, readBody } from '~/utils/request-body.server.ts'

/**
 * The form a request carries (at most `limit` bytes, counted as they arrive: BodyTooLarge), or
 * null for a body that is no form (JSON, a broken multipart, nothing at all) or that carries a NUL
 * character in a field (Postgres cannot store one in text, so it would fail deep inside a query).
 */
export async function formOf(request: Request, limit: number): Promise<FormData | null> {
  let form: FormData
  try {
    const body = await readBody(request, limit)
    form = await new Response(body, {
      headers: { 'Content-Type': request.headers.get('Content-Type') ?? '' },
    }).formData()
  } catch (error) {
    if (error instanceof BodyTooLarge) throw error
    return null
  }
  const hasNul = [...form.values()].some(
    (value) => typeof value === 'string' && value.includes('\0'),
  )
  return hasNul ? null : form
}

/**
 * Reads a page's form post (at most `limit` bytes, MAX_FORM_BYTES unless the form may carry an
 * image: 413 past it). A body that is no form is answered 400 with a message in the visitor's
 * language.
 */
export async function readForm(request: Request, limit = MAX_FORM_BYTES): Promise<FormData> {
  let form: FormData | null
  try {
    form = await formOf(request, limit)
  } catch (error) {
    if (error instanceof BodyTooLarge) throw await refusal(request, 413, 'api.tooLarge')
    throw error
  }
  if (form) return form
  throw await refusal(request, 400, 'errors.badForm')
}

/** Plain text: the error boundary of a page shows it, and a resource route answers with it. */
async function refusal(request: Request, status: number, key: string) {
  const t = await getFixedT(request)
  return new Response(t(key), {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  })
}

/** Whether a form came from a fetcher of the site's pages (their forms say so once hydrated). */
export const sentByFetcher = (form: FormData) => form.get('via') === 'fetcher'

/**
 * A form route's answer when it does not redirect: to a fetcher, Remix's data (a refusal stays
 * data for the page to show, not an error); to any other client, a JSON response, as Remix asks of
 * resource routes reached from outside.
 */
export function formAnswer<T>(form: FormData, body: T, init?: number | ResponseInit) {
  return sentByFetcher(form) ? data(body, init) : json(body, init)
}
