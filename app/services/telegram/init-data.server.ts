import { createHmac, timingSafeEqual } from 'node:crypto'

// The launch data Telegram gives a Mini App (Telegram.WebApp.initData), checked on the server
// as Telegram's "Validating data received via the Mini App" says
// (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app): the
// data-check-string is every received field but `hash`, sorted by key, as `key=value` lines
// joined by "\n"; the secret key is HMAC-SHA-256 of the bot's token keyed with "WebAppData";
// `hash` is the hex HMAC-SHA-256 of the data-check-string with that key. `auth_date` (Unix
// seconds) older than the limit is refused, so a copy of old launch data signs nobody in.

/** How old launch data may be when it arrives (docs/rules.md#telegram-mini-app). */
export const INIT_DATA_MAX_AGE_SECONDS = 24 * 60 * 60
/** Launch data is a short query string; anything much longer is not Telegram's. */
const MAX_LENGTH = 8_192

export type MiniAppUser = { id: number; firstName: string; languageCode: string | null }

export type InitDataCheck =
  | { ok: true; user: MiniAppUser; authDate: number; startParam: string | null }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' }

const secretOf = (token: string) => createHmac('sha256', 'WebAppData').update(token).digest()

/** The data-check-string and the hash of launch data as received, or null when malformed. */
function parse(raw: string) {
  if (raw.length === 0 || raw.length > MAX_LENGTH) return null
  const fields = new Map<string, string>()
  for (const [key, value] of new URLSearchParams(raw)) {
    // A field twice is not something Telegram sends: which one was signed?
    if (fields.has(key)) return null
    fields.set(key, value)
  }
  const hash = fields.get('hash')
  if (!hash || !/^[0-9a-f]{64}$/.test(hash)) return null
  fields.delete('hash')
  const checkString = [...fields.keys()]
    .sort()
    .map((key) => `${key}=${fields.get(key)}`)
    .join('\n')
  return { fields, hash, checkString }
}

function userOf(json: string | undefined): MiniAppUser | null {
  if (!json) return null
  try {
    const user = JSON.parse(json) as { id?: unknown; first_name?: unknown; language_code?: unknown }
    if (!Number.isSafeInteger(user.id) || (user.id as number) <= 0) return null
    return {
      id: user.id as number,
      firstName: typeof user.first_name === 'string' ? user.first_name : '',
      languageCode: typeof user.language_code === 'string' ? user.language_code : null,
    }
  } catch {
    return null
  }
}

/** Checks launch data against the bot's token at `nowMs`. */
export function checkInitData(
  raw: string,
  botToken: string,
  nowMs = Date.now(),
  maxAgeSeconds = INIT_DATA_MAX_AGE_SECONDS,
): InitDataCheck {
  const parsed = parse(raw)
  if (!parsed) return { ok: false, reason: 'malformed' }
  const expected = createHmac('sha256', secretOf(botToken)).update(parsed.checkString).digest()
  if (!timingSafeEqual(expected, Buffer.from(parsed.hash, 'hex')))
    return { ok: false, reason: 'signature' }
  const authDate = Number(parsed.fields.get('auth_date'))
  const user = userOf(parsed.fields.get('user'))
  if (!Number.isSafeInteger(authDate) || !user) return { ok: false, reason: 'malformed' }
  const age = nowMs / 1000 - authDate
  // A minute of clock difference ahead is allowed; more is not a real launch.
  if (age > maxAgeSeconds || age < -60) return { ok: false, reason: 'expired' }
  return { ok: true, user, authDate, startParam: parsed.fields.get('start_param') ?? null }
}
