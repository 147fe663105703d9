import { describe, expect, test } from 'vitest'
import { action, loader } from '~/routes/account/resources.onboarding.ts'
import { onboardingCookie, readOnboarding } from './onboarding.server.ts'

const shown = { welcome: true, completeProfile: true }
const none = { welcome: false, completeProfile: false }

async function withFlags(headers: Record<string, string> = {}, method = 'GET') {
  const cookie = (await onboardingCookie(false)).split(';')[0]!
  return new Request('http://localhost/', { method, headers: { Cookie: cookie, ...headers } })
}

const cleared = (setCookie: string | null) => /^onboarding=;.*Max-Age=0/i.test(setCookie ?? '')

describe('onboarding flags', () => {
  test('a page loaded as a whole gets the flags and clears them in the same answer', async () => {
    for (const headers of [{ 'Sec-Fetch-Mode': 'navigate' }, {}] as Array<Record<string, string>>) {
      const { onboarding, clear } = await readOnboarding(await withFlags(headers))
      expect(onboarding).toEqual(shown)
      expect(cleared(clear)).toBe(true)
    }
  })

  test("a script's data request gets the flags and leaves them for the page to clear", async () => {
    for (const mode of ['cors', 'same-origin']) {
      const { onboarding, clear } = await readOnboarding(
        await withFlags({ 'Sec-Fetch-Mode': mode }),
      )
      expect(onboarding).toEqual(shown)
      expect(clear).toBeNull()
    }
  })

  test('without the cookie nothing is due and nothing is cleared', async () => {
    expect(await readOnboarding(new Request('http://localhost/'))).toEqual({
      onboarding: none,
      clear: null,
    })
  })

  test('the page saying it showed them clears them; any other method is refused', async () => {
    const said = async (via: string | null, method = 'POST') => {
      const request = await withFlags({ 'Sec-Fetch-Mode': 'cors' }, method)
      const body = new URLSearchParams(via ? { via } : {})
      return action({ request: new Request(request, { body }) })
    }
    // The page's fetcher gets data; any other client a JSON answer (a resource route's).
    const fromPage = await said('fetcher')
    if (fromPage instanceof Response) throw new Error(`refused: ${fromPage.status}`)
    expect(fromPage.data).toEqual({ ok: true })
    expect(cleared(new Headers(fromPage.init?.headers).get('Set-Cookie'))).toBe(true)
    const fromOutside = await said(null)
    if (!(fromOutside instanceof Response)) throw new Error('not a JSON answer')
    expect(await fromOutside.json()).toEqual({ ok: true })
    expect(cleared(fromOutside.headers.get('Set-Cookie'))).toBe(true)
    const put = await said(null, 'PUT')
    expect(put instanceof Response && put.status).toBe(405)
    const refused = await loader({ request: await withFlags() })
    expect(refused.status).toBe(405)
    expect(await refused.json()).toEqual({ error: expect.any(String) })
  })
})
