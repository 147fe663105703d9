// The secrets the server under test signs cookies with (tests/e2e/global-setup.ts): a rotation
// is under way, so cookies signed with the previous one are still accepted.
export const SESSION_SECRET = 'e2e-session-secret-e2e-session-secret-0123'
export const SESSION_SECRET_PREVIOUS = 'e2e-previous-secret-e2e-previous-secret-45'

// The site's VAPID key pair for Web Push (docs/push.md): the profile's push section shows.
export const VAPID = {
  VAPID_PUBLIC_KEY:
    'BLOEDfYe2PdzUO0ts945UUK5WcUTuolu0E-IS61H1XfntztF4Xq3Vdu7vALFxmqDBN7uu4AmarBgEiw7nUW68Jg',
  VAPID_PRIVATE_KEY: 'xCAqV-HTshz0f3isqOOj6YTtIIQfQueej0lTG54y4ZU',
  VAPID_SUBJECT: 'mailto:alerts@auction.kg',
}
