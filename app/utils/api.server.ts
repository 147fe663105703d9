import type { TFunction } from 'i18next'
import type { z } from 'zod'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { PRIVATE } from '~/utils/cache-control.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { BodyTooLarge, MAX_JSON_BYTES, readBodyText } from '~/utils/request-body.server.ts'

// The JSON API's edges (docs/rules.md#errors): errors are {"error": "..."} with a fitting status and
// a message in the request's language; bodies are size-limited JSON. Who may call is checked in
// app/services/guards.server.ts (requireApiUser, requireApiAdmin).

export function json(data: unknown, init?: number | ResponseInit) {
  const base = typeof init === 'number' ? { status: init } : (init ?? {})
  const headers = new Headers(base.headers)
  headers.set('Content-Type', 'application/json; charset=utf-8')
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', PRIVATE)
  return new Response(JSON.stringify(data), { ...base, headers })
}

export function apiError(status: number, message: string, init?: ResponseInit) {
  return json({ error: message }, { ...init, status })
}

/**
 * The call's answer from `run`; a refusal it throws (a DomainError) is answered as `{"error"}`
 * with its status and its text in `t`'s language and namespaces.
 */
export async function answerRefusals(t: TFunction, run: () => Promise<Response>) {
  try {
    return await run()
  } catch (error) {
    if (error instanceof DomainError) return apiError(error.status, t(error.key))
    throw error
  }
}

/** 429 with Retry-After for a rate limit that was hit. */
export function tooMany(t: TFunction, seconds: number) {
  return apiError(429, t('auth.tooManyAttempts', { seconds }), {
    headers: { 'Retry-After': String(seconds) },
  })
}

export async function translator(request: Request): Promise<TFunction> {
  return getFixedT(request)
}

/** Reads a JSON object body; a malformed, oversized or non-object body is a 400/413. */
export async function readJson(request: Request, t: TFunction): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readBodyText(request, MAX_JSON_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLarge) throw apiError(413, t('api.tooLarge'))
    throw apiError(400, t('api.badJson'))
  }
  if (!text.trim()) return {}
  // Postgres cannot store a NUL character in text: refuse it here rather than fail later.
  if (text.includes('\\u0000') || text.includes('\0')) throw apiError(400, t('api.badJson'))
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>
  } catch {
    // Falls through to the error below.
  }
  throw apiError(400, t('api.badJson'))
}

/** Validates with a shared schema; the first problem becomes a translated 400. */
export function validate<S extends z.ZodTypeAny>(
  schema: S,
  data: unknown,
  t: TFunction,
): z.output<S> {
  const result = schema.safeParse(data)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  throw apiError(
    400,
    issue ? t(issue.message, { defaultValue: t('api.invalid') }) : t('api.invalid'),
  )
}

export async function methodNotAllowed(request: Request) {
  const t = await translator(request)
  return apiError(405, t('api.methodNotAllowed'))
}
