import { describe, expect, test } from 'vitest'
import { launchData } from '../../../tests/support/telegram-launch.ts'
import { checkInitData, INIT_DATA_MAX_AGE_SECONDS } from './init-data.server.ts'

// Launch data of a Mini App is believed only as Telegram's validation page says
// (app/services/telegram/init-data.server.ts).
const token = '7000000001:AAE-botTokenOfThisSiteForTests_0123456'
const otherToken = '7000000002:AAE-anotherBotsTokenForTests_6543210'
const user = { id: 424242, first_name: 'Айбек', language_code: 'ky' }
const now = Date.UTC(2026, 11, 2, 12)
const at = (secondsAgo: number) => Math.floor(now / 1000) - secondsAgo

describe('checkInitData', () => {
  test('launch data signed for this bot signs its user in, with the start parameter', () => {
    const raw = launchData(token, user, { authDate: at(5), startParam: 'a_abc' })
    expect(checkInitData(raw, token, now)).toEqual({
      ok: true,
      user: { id: 424242, firstName: 'Айбек', languageCode: 'ky' },
      authDate: at(5),
      startParam: 'a_abc',
    })
  })

  test('one field changed, added or removed after signing is refused', () => {
    const raw = launchData(token, user, { authDate: at(5) })
    const changed = new URLSearchParams(raw)
    changed.set('user', JSON.stringify({ ...user, id: 1 }))
    expect(checkInitData(changed.toString(), token, now)).toEqual({
      ok: false,
      reason: 'signature',
    })
    const added = new URLSearchParams(raw)
    added.set('start_param', 'x')
    expect(checkInitData(added.toString(), token, now).ok).toBe(false)
    const removed = new URLSearchParams(raw)
    removed.delete('query_id')
    expect(checkInitData(removed.toString(), token, now).ok).toBe(false)
    const date = new URLSearchParams(raw)
    date.set('auth_date', String(at(0)))
    expect(checkInitData(date.toString(), token, now).ok).toBe(false)
  })

  test("another bot's signature is refused", () => {
    const raw = launchData(otherToken, user, { authDate: at(5) })
    expect(checkInitData(raw, token, now)).toEqual({ ok: false, reason: 'signature' })
  })

  test('launch data older than the limit, or from the future, is refused', () => {
    const old = launchData(token, user, { authDate: at(INIT_DATA_MAX_AGE_SECONDS + 1) })
    expect(checkInitData(old, token, now)).toEqual({ ok: false, reason: 'expired' })
    const limit = launchData(token, user, { authDate: at(INIT_DATA_MAX_AGE_SECONDS - 1) })
    expect(checkInitData(limit, token, now).ok).toBe(true)
    const ahead = launchData(token, user, { authDate: at(-3600) })
    expect(checkInitData(ahead, token, now)).toEqual({ ok: false, reason: 'expired' })
  })

  test('anything that is not launch data is malformed, never a thrown error', () => {
    const raw = launchData(token, user, { authDate: at(5) })
    const twice = `${raw}&user=${encodeURIComponent(JSON.stringify(user))}`
    for (const bad of [
      '',
      'hash=',
      'user=1',
      'x'.repeat(10_000),
      `${raw.replace(/hash=[0-9a-f]+/, 'hash=zz')}`,
      twice,
    ])
      expect(checkInitData(bad, token, now)).toMatchObject({ ok: false })
    // Signed, but without a user: nobody to sign in.
    const noUser = new URLSearchParams(raw)
    noUser.delete('user')
    expect(checkInitData(noUser.toString(), token, now).ok).toBe(false)
  })
})
