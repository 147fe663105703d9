import { getFixedT } from '~/services/i18n.server.ts'

/**
 * Reads a page's form post. A body that is no form (JSON, a broken multipart, nothing at all) or
 * that carries a NUL character (Postgres cannot store one in text, so it would fail deep inside a
 * query) is answered 400 with a message in the visitor's language.
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData | null = null
  try {
    form = await request.formData()
  } catch {
    // Answered below.
  }
  if (
    form &&
    ![...form.values()].some((value) => typeof value === 'string' && value.includes('\0'))
  )
    return form
  const t = await getFixedT(request)
  // Plain text: the error boundary of a page shows it, and a resource route answers with it.
  throw new Response(t('errors.badForm'), {
    status: 400,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  })
}
