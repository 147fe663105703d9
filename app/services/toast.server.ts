import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { cookieSecrets, getEnv } from '~/utils/env.server.ts'
import { combineHeaders } from '~/utils/http.ts'
import { toastSchema, type Toast, type ToastInput } from '~/validation/toast.ts'

// Flash toasts travel in their own short-lived cookie, read once by the root loader, so a
// browser without JavaScript also sees the message after a redirect.

const TOAST_KEY = 'toast'

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

/** The Set-Cookie header that carries a toast to the next page, where getToast reads it once. */
export async function createToastHeaders(input: ToastInput): Promise<Headers> {
  const session = await toastStorage().getSession()
  session.flash(TOAST_KEY, toastSchema.parse(input))
  return new Headers({ 'Set-Cookie': await toastStorage().commitSession(session) })
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
