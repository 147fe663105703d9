// After registration the welcome and complete-profile dialogs are shown once (docs/rules.md#onboarding):
// the flags live in a cookie, read and cleared by the root loader in the same response.

const COOKIE = 'onboarding'
export type Onboarding = { welcome: boolean; completeProfile: boolean }

export function onboardingCookie(secure: boolean) {
  return `${COOKIE}=welcome.profile; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600${secure ? '; Secure' : ''}`
}

export function readOnboarding(request: Request): { onboarding: Onboarding; clear: string | null } {
  const match = /(?:^|;\s*)onboarding=([^;]*)/.exec(request.headers.get('Cookie') ?? '')
  if (!match) return { onboarding: { welcome: false, completeProfile: false }, clear: null }
  const parts = (match[1] ?? '').split('.')
  return {
    onboarding: { welcome: parts.includes('welcome'), completeProfile: parts.includes('profile') },
    clear: `${COOKIE}=; Path=/; Max-Age=0`,
  }
}
