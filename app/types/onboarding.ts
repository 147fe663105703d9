/**
 * Which dialogs shown once after registration are still to come (docs/rules.md#onboarding):
 * app/services/onboarding.server.ts keeps them in a cookie, app/components/onboarding.tsx shows
 * them.
 */
export type Onboarding = { welcome: boolean; completeProfile: boolean }
