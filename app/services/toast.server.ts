import { createHmac } from 'node:crypto'
import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { z } from 'zod'
import { cookieSecrets, getEnv } from '~/utils/env.server.ts'
import { combineHeaders } from '~/utils/http.ts'

// Flash toasts travel in their own short-lived cookie, read once by the root loader, so a
// browser without JavaScript also sees the message after a redirect.

export const toastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  type: z.enum(['message', 'success', 'error']).default('message'),
  title: z.string().optional(),
  description: z.string(),
})
export type Toast = z.infer<typeof toastSchema>
export type ToastInput = z.input<typeof toastSchema>

const TOAST_KEY = 'toast'
/** Where a session keeps a value flashed under TOAST_KEY (Remix's session format). */
const FLASHED_TOAST = `__flash_${TOAST_KEY}__`

type ToastStorage = ReturnType<
  typeof createCookieSessionStorage<Record<string, never>, { toast: Toast }>
>
let storage: ToastStorage | undefined
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
    cookie: toastCookieOptions(),
  })
  return storage
}

function toastCookieOptions() {
  const env = getEnv()
  const production = env.NODE_ENV === 'production'
  return {
    name: production ? '__Host-toast' : 'toast',
    sameSite: 'lax',
    path: '/',
    httpOnly: true,
    secrets: cookieSecrets(env),
    secure: production,
  } as const
}

/**
 * The Set-Cookie value that carries a toast to the next page: what the toast storage's
 * commitSession makes of a new session with the toast flashed (getToast reads it), written
 * directly, as it goes out with every bid from a page without JavaScript.
 */
export function toastCookie(input: ToastInput): string {
  const toast: Toast = {
    id: input.id ?? Math.random().toString(36).slice(2),
    type: input.type ?? 'message',
    ...(input.title === undefined ? {} : { title: input.title }),
    description: input.description,
  }
  const { name, secret, attributes } = toastWriter()
  const value = Buffer.from(JSON.stringify({ [FLASHED_TOAST]: toast })).toString('base64')
  const signature = createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '')
  return `${name}=${encodeURIComponent(`${value}.${signature}`)}${attributes}`
}

/** The storage's cookie as toastCookie writes it: signed with the first (current) secret. */
let writer: { name: string; secret: string; attributes: string } | undefined
function toastWriter() {
  if (!writer) {
    const { name, secrets, secure } = toastCookieOptions()
    const [secret] = secrets
    if (!secret) throw new Error('toast cookies need a secret')
    const attributes = `; Path=/; HttpOnly${secure ? '; Secure' : ''}; SameSite=Lax`
    writer = { name, secret, attributes }
  }
  return writer
}

export async function createToastHeaders(input: ToastInput): Promise<Headers> {
  return new Headers({ 'Set-Cookie': toastCookie(input) })
}

export async function redirectWithToast(url: string, input: ToastInput, init?: ResponseInit) {
  return redirect(url, {
    ...init,
    headers: combineHeaders(init?.headers, await createToastHeaders(input)),
  })
}

export async function getToast(
  request: Request,
): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await toastStorage().getSession(request.headers.get('Cookie'))
  const parsed = toastSchema.safeParse(session.get(TOAST_KEY))
  const toast = parsed.success ? parsed.data : null
  return {
    toast,
    headers: toast
      ? new Headers({ 'Set-Cookie': await toastStorage().destroySession(session) })
      : null,
  }
}
