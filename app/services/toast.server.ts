import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { z } from 'zod'
import { cookieSecrets, getEnv } from '~/utils/env.server.ts'
import { combineHeaders } from '~/utils/http.ts'

// Flash toasts travel in their own short-lived cookie, read once by the root loader, so a
// browser without JavaScript also sees the message after a redirect (STYLE.md idiom 6).

export const toastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  type: z.enum(['message', 'success', 'error']).default('message'),
  title: z.string().optional(),
  description: z.string(),
})
export type Toast = z.infer<typeof toastSchema>
export type ToastInput = z.input<typeof toastSchema>

const TOAST_KEY = 'toast'

type ToastStorage = ReturnType<
  typeof createCookieSessionStorage<Record<string, never>, { toast: Toast }>
>
let storage: ToastStorage | undefined
function toastStorage() {
  const env = getEnv()
  storage ??= createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
    cookie: {
      name: env.NODE_ENV === 'production' ? '__Host-toast' : 'toast',
      sameSite: 'lax',
      path: '/',
      httpOnly: true,
      secrets: cookieSecrets(env),
      secure: env.NODE_ENV === 'production',
    },
  })
  return storage
}

/** The Set-Cookie value that carries a toast to the next page. */
export async function toastCookie(input: ToastInput): Promise<string> {
  const session = await toastStorage().getSession()
  session.flash(TOAST_KEY, toastSchema.parse(input))
  return toastStorage().commitSession(session)
}

export async function createToastHeaders(input: ToastInput): Promise<Headers> {
  return new Headers({ 'Set-Cookie': await toastCookie(input) })
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
