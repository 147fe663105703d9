/** Merges several header sets into one; Set-Cookie values are kept side by side. */
export function combineHeaders(...all: Array<HeadersInit | null | undefined>): Headers {
  const combined = new Headers()
  for (const headers of all) {
    if (!headers) continue
    for (const [key, value] of new Headers(headers).entries()) {
      combined.append(key, value)
    }
  }
  return combined
}

/**
 * A same-site path to go back to after a form post, or the fallback. Refuses anything that
 * could leave the site (`//evil`, `/\\evil`, absolute URLs) so a redirect is never open.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/') {
  if (
    typeof to !== 'string' ||
    !to.startsWith('/') ||
    to.startsWith('//') ||
    to.startsWith('/\\')
  ) {
    return fallback
  }
  return to
}

/** A `?page=` value: a whole number from 1; anything else is page 1. */
export function pageParam(value: string | null): number {
  const page = Number.parseInt(value ?? '1', 10)
  return Number.isSafeInteger(page) && page >= 1 ? page : 1
}
