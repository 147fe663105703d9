import { createCookie } from '@remix-run/node'
import type { Onboarding } from '~/types/onboarding.ts'

// After registration the welcome and complete-profile dialogs are shown once (docs/rules.md#onboarding).
// The flags live in a cookie until the page that shows them says so: a page's own load clears
// them in its answer (nothing can drop that answer before it is shown), while a script's data
// request leaves them, and the page clears them once it shows the dialog
// (app/routes/account/resources.onboarding.ts). A data answer may be dropped unseen: a newer
// navigation or revalidation cancels it, or a route beside the root redirects and its root data
// goes with it; a flag cleared by such an answer would be lost with it.

const cookie = createCookie('onboarding', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  maxAge: 60 * 60,
})

const NONE: Onboarding = { welcome: false, completeProfile: false }

/** The Set-Cookie header that shows both dialogs on the next page. */
export function onboardingCookie(secure: boolean) {
  return cookie.serialize({ welcome: true, completeProfile: true } satisfies Onboarding, { secure })
}

/** The Set-Cookie header that ends both flags. */
export function clearOnboarding() {
  return cookie.serialize('', { maxAge: 0 })
}

/**
 * A page's own load (a navigation, with or without JavaScript), as against a script's request
 * for data. A browser too old to say (no Fetch Metadata) is taken as loading a page.
 */
function isPageLoad(request: Request) {
  return (request.headers.get('Sec-Fetch-Mode') ?? 'navigate') === 'navigate'
}

export async function readOnboarding(
  request: Request,
): Promise<{ onboarding: Onboarding; clear: string | null }> {
  const value = (await cookie.parse(request.headers.get('Cookie'))) as Partial<Onboarding> | null
  if (!value || typeof value !== 'object') return { onboarding: NONE, clear: null }
  return {
    onboarding: {
      welcome: value.welcome === true,
      completeProfile: value.completeProfile === true,
    },
    clear: isPageLoad(request) ? await clearOnboarding() : null,
  }
}
