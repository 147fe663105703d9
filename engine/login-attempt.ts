import { defineScript } from './lua-runner.ts'

/**
 * A login attempt counted before its password is checked (engine/lua/login-attempt.lua; the
 * limits are app/services/rate-limit.server.ts's). Replies 0 to go on to the password, else the
 * ms to wait.
 */
export const loginAttemptScript = defineScript({
  name: 'login-attempt',
  shared: ['now', 'sliding-window'],
  keys: ['wait', 'failures', 'addressAttempts', 'usernameFailures'],
  args: [
    'attemptsPerAddress',
    'addressWindowMs',
    'freeFailures',
    'firstWaitMs',
    'longestWaitMs',
    'forgetSeconds',
    'failuresPerUsername',
    'usernameWindowMs',
    'busyUsernameWaitMs',
  ],
  parse: (raw) => raw as number,
})

/**
 * One hit against a limit of `limit` hits in any `windowMs` (engine/lua/rate-limit.lua). Replies
 * 0 when the hit is allowed (and counted), else the ms until the window has room.
 */
export const rateLimitScript = defineScript({
  name: 'rate-limit',
  shared: ['now', 'sliding-window'],
  keys: ['hits'],
  args: ['limit', 'windowMs'],
  parse: (raw) => raw as number,
})
