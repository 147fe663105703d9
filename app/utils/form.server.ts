import { getFixedT } from '~/services/i18n.server.ts'
import { BodyTooLarge, MAX_FORM_BYTES, readBody } from '~/utils/request-body.server.ts'

/**
 * Reads a page's form post (at most MAX_FORM_BYTES, counted as they arrive: 413). A body that is
 * no form (JSON, a broken multipart, nothing at all) or that carries a NUL character (Postgres
 * cannot store one in text, so it would fail deep inside a query) is answered 400 with a message
 * in the visitor's language.
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData | null = null
  try {
    const body = await readBody(request, MAX_FORM_BYTES)
    form = await new Response(body, {
      headers: { 'Content-Type': request.headers.get('Content-Type') ?? '' },
    }).formData()
  } catch (error) {
    if (error instanceof BodyTooLarge) throw await refusal(request, 413, 'api.tooLarge')
  }
  if (
    form &&
    ![...form.values()].some((value) => typeof value === 'string' && value.includes('\0'))
  )
    return form
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
