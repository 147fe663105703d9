// The secrets the server under test signs cookies with (tests/e2e/global-setup.ts): a rotation
// is under way, so cookies signed with the previous one are still accepted.
export const SESSION_SECRET = 'e2e-session-secret-e2e-session-secret-0123'
export const SESSION_SECRET_PREVIOUS = 'e2e-previous-secret-e2e-previous-secret-45'
