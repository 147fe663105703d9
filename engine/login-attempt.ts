import { defineScript } from './script.ts'

/**
 * A login attempt counted before its password is checked (engine/lua/login-attempt.lua; the
 * limits are app/services/rate-limit.server.ts's). Replies 0 to go on to the password, else the
 * ms to wait.
 */
export const loginAttemptScript = defineScript({
  name: 'login-attempt',
  keys: ['wait', 'failures', 'addressAttempts', 'usernameFailures'],
  args: [
    'attemptsPerAddress',
    'addressLeftMs',
    'addressWindowSeconds',
    'freeFailures',
    'firstWaitMs',
    'longestWaitMs',
    'forgetSeconds',
    'failuresPerUsername',
    'busyUsernameWaitMs',
  ],
  parse: (raw) => raw as number,
})
