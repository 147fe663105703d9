import { expect, inject } from 'vitest'

// Calls to the JSON API of the server under test.
export const base = () => inject('baseUrl')
let n = 0
// The process id keeps names apart across files running at the same time.
export const unique = () => `api${Date.now().toString(36)}${process.pid.toString(36)}${n++}`

/** As long as a browser test waits for a page (tests/e2e/browser.ts). */
const CALL_TIMEOUT_MS = 50_000

export async function call(
  path: string,
  init: {
    method?: string
    body?: unknown
    raw?: string
    cookie?: string
    lang?: string
    headers?: Record<string, string>
  } = {},
) {
  const method = init.method ?? 'POST'
  // A call unanswered this long fails with its own name, not as the test's timeout.
  const response = await fetch(`${base()}${path}`, {
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    method,
    headers: {
      'Content-Type': 'application/json',
      'Accept-Language': init.lang ?? 'ru',
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...init.headers,
    },
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  }).catch((error: unknown) => {
    throw new Error(
      `${method} ${path}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    )
  })
  const text = await response.text()
  let json: unknown = null
  try {
    json = JSON.parse(text)
  } catch {
    // Not JSON: left null, the assertion says so.
  }
  return {
    status: response.status,
    json: json as Record<string, unknown>,
    cookie: response.headers.get('set-cookie'),
    /** Each Set-Cookie header whole, with its attributes. */
    setCookies: response.headers.getSetCookie(),
    retryAfter: response.headers.get('retry-after'),
  }
}

/** GETs each path (with the session `cookie`, if any): each answers `status` with `json`. */
export async function expectEachGet(
  paths: readonly string[],
  status: number,
  json: unknown,
  cookie?: string,
) {
  for (const path of paths) {
    const response = await call(path, { method: 'GET', cookie })
    expect(response.status, path).toBe(status)
    expect(response.json, path).toEqual(json)
  }
}

export const sessionOf = (setCookie: string | null) => setCookie?.split(';')[0] ?? ''

/** A new account, registered through the API (`name` or a unique one): its id, username and session cookie. */
export async function newAccount(name = unique()) {
  const registered = await call('/api/auth/register', {
    body: { username: name, email: `${name}@mail.kg`, password: 'secret12' },
  })
  if (registered.status !== 201) {
    throw new Error(`registration failed: ${registered.status} ${JSON.stringify(registered.json)}`)
  }
  const { id } = registered.json.user as { id: string }
  return { id, name, cookie: sessionOf(registered.cookie), setCookies: registered.setCookies }
}
