/** The login page, sending the person on to `redirectTo` (a path of this site) once signed in. */
export function loginHref(redirectTo: string) {
  return `/login?redirectTo=${encodeURIComponent(redirectTo)}`
}
