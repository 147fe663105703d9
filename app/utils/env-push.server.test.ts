import { expect, test } from 'vitest'
import webpush from 'web-push'
import { EnvError, parseEnv } from './env.server.ts'
import { vapidOf } from './env-push.server.ts'

// VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (docs/push.md): all three or none.

const base = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
}
const pair = webpush.generateVAPIDKeys()
const push = {
  VAPID_PUBLIC_KEY: pair.publicKey,
  VAPID_PRIVATE_KEY: pair.privateKey,
  VAPID_SUBJECT: 'mailto:alerts@auction.kg',
}

/** The problems parseEnv names; none when it accepts the environment. */
function issues(env: Record<string, string>): string[] {
  const refusal = (() => {
    try {
      parseEnv(env)
    } catch (error) {
      return error
    }
  })()
  if (refusal === undefined) return []
  if (refusal instanceof EnvError) return refusal.issues
  throw refusal
}

test('without the keys there is no Web Push; with all three there is', () => {
  expect(vapidOf(parseEnv(base))).toBeNull()
  expect(vapidOf(parseEnv({ ...base, ...push }))).toEqual({
    publicKey: pair.publicKey,
    privateKey: pair.privateKey,
    subject: 'mailto:alerts@auction.kg',
  })
  expect(issues({ ...base, ...push, VAPID_SUBJECT: 'https://auction.kg/contact' })).toEqual([])
})

test('a missing, malformed or mismatched setting stops the start, naming it', () => {
  expect(issues({ ...base, VAPID_PUBLIC_KEY: pair.publicKey })).toEqual([
    'VAPID_PRIVATE_KEY: is required when any VAPID_ setting is set',
    'VAPID_SUBJECT: is required when any VAPID_ setting is set',
  ])
  expect(issues({ ...base, ...push, VAPID_SUBJECT: 'alerts@auction.kg' })).toEqual([
    'VAPID_SUBJECT: must be a mailto: or https:// address',
  ])
  expect(issues({ ...base, ...push, VAPID_PRIVATE_KEY: 'short' })[0]).toMatch(/^VAPID_PRIVATE_KEY:/)
  const other = webpush.generateVAPIDKeys()
  expect(issues({ ...base, ...push, VAPID_PRIVATE_KEY: other.privateKey })).toEqual([
    'VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY',
  ])
})
