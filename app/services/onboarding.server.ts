import { createCookie } from '@remix-run/node'
import type { Onboarding } from '~/types/onboarding.ts'

// After registration the welcome and complete-profile dialogs are shown once (docs/rules.md#onboarding):
// the flags live in a cookie, read and cleared by the root loader in the same response.

const cookie = createCookie('onboarding', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  maxAge: 60 * 60,
})

/** The Set-Cookie header that shows both dialogs on the next page. */
export function onboardingCookie(secure: boolean) {
  return cookie.serialize({ welcome: true, completeProfile: true } satisfies Onboarding, { secure })
}

export async function readOnboarding(
  request: Request,
): Promise<{ onboarding: Onboarding; clear: string | null }> {
  const value = (await cookie.parse(request.headers.get('Cookie'))) as Partial<Onboarding> | null
  if (!value || typeof value !== 'object')
    return { onboarding: { welcome: false, completeProfile: false }, clear: null }
  return {
    onboarding: {
      welcome: value.welcome === true,
      completeProfile: value.completeProfile === true,
    },
    clear: await cookie.serialize('', { maxAge: 0 }),
  }
}
