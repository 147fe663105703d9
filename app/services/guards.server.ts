import { data, redirect } from '@remix-run/node'
import type { TFunction } from 'i18next'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { getOptionalUser, getOptionalUserId } from '~/services/session.server.ts'
import type { CurrentUser } from '~/types/current-user.ts'
import { apiError, translator } from '~/utils/api.server.ts'
import { loginHref } from '~/utils/login-href.ts'

// Who may go on (docs/rules.md#roles): every loader, action and JSON call that needs a signed-in
// person or an admin asks here; the server enforces the role, not only the menu. Pages send
// anyone else to /login and back (an admin page sends a user home); the JSON API answers 401 and
// 403 `{"error"}` in the caller's language; a page or form that answers a visitor itself (its
// own "log in" view, a fetcher's refusal, a toast) says how with `withUser`.

/** The login page, sending the person to `redirectTo` (a path of this site) once signed in. */
export function loginRedirect(redirectTo: string) {
  return redirect(loginHref(redirectTo))
}

/**
 * Pages: the signed-in user, or (thrown) a redirect to /login that comes back to `redirectTo`,
 * this address by default.
 */
export async function requireUser(
  request: Request,
  { redirectTo }: { redirectTo?: string } = {},
): Promise<CurrentUser> {
  const user = await getOptionalUser(request)
  if (user) return user
  const url = new URL(request.url)
  throw loginRedirect(redirectTo ?? url.pathname + url.search)
}

/** /login: a person already signed in is sent (thrown) on to `to`. */
export async function requireAnonymous(request: Request, to: string) {
  if (await getOptionalUser(request)) throw redirect(to)
}

/** Admin pages: anonymous -> the login page (and back), a user -> the home page. */
export async function requireAdmin(request: Request): Promise<CurrentUser> {
  const user = await requireUser(request)
  if (user.role !== 'admin') throw redirect('/')
  return user
}

/** An admin page's action or loader: the admin required, then the translator for `ns`. */
export async function requireAdminT(request: Request, ns: readonly [string, ...string[]]) {
  await requireAdmin(request)
  return getFixedT(request, ns)
}

type Answer<T> = T | Promise<T>

async function signedIn<P, T, A>(
  who: Promise<P | null>,
  anonymous: () => Answer<A>,
  run: (person: P) => Answer<T>,
): Promise<T | A> {
  const person = await who
  return person ? run(person) : anonymous()
}

/**
 * A page or form that answers a visitor who is not signed in itself: `run` for the signed-in
 * user, else `anonymous()` (a page's `loginView`, a fetcher's 401, a toast, `loginRedirect`).
 */
export function withUser<T, A>(
  request: Request,
  anonymous: () => Answer<A>,
  run: (user: CurrentUser) => Answer<T>,
) {
  return signedIn(getOptionalUser(request), anonymous, run)
}

/** withUser with the session's user id only (no read of the user's row, as a bid). */
export function withUserId<T, A>(
  request: Request,
  anonymous: () => Answer<A>,
  run: (userId: string) => Answer<T>,
) {
  return signedIn(getOptionalUserId(request), anonymous, run)
}

/** A page's own "log in to see this" view (the profile, the bid history): its data with 401. */
export function loginView<T>(page: T) {
  return data(page, { status: 401 })
}

/**
 * The JSON API: the signed-in user, or (thrown) 401 `{"error"}` with `key`'s text, "login
 * required" unless the call says its own (in `t`'s namespaces).
 */
export async function requireApiUser(
  request: Request,
  t?: TFunction,
  key = 'errors.loginRequired',
): Promise<CurrentUser> {
  const user = await getOptionalUser(request)
  if (user) return user
  throw apiError(401, (t ?? (await translator(request)))(key))
}

/** The admin JSON API: anonymous -> 401, a user -> 403, each with a message. */
export async function requireApiAdmin(request: Request, t?: TFunction): Promise<CurrentUser> {
  const user = await getOptionalUser(request)
  const translate = t ?? (await translator(request))
  if (!user) throw apiError(401, translate('errors.loginRequired'))
  if (user.role !== 'admin') throw apiError(403, translate('errors.adminOnly'))
  return user
}
