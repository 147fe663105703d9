import { createHmac } from 'node:crypto'

// Launch data as Telegram's client hands it to a Mini App, signed as Telegram signs it
// (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app), written
// here apart from the site's own check so that the two do not agree by construction.

export type LaunchUser = { id: number; first_name: string; language_code?: string }

/** `Telegram.WebApp.initData` for `user`, signed with `botToken`, `authDate` in Unix seconds. */
export function launchData(
  botToken: string,
  user: LaunchUser,
  {
    authDate = Math.floor(Date.now() / 1000),
    startParam,
  }: { authDate?: number; startParam?: string } = {},
): string {
  const fields: Record<string, string> = {
    auth_date: String(authDate),
    chat_instance: '-4086150257810217005',
    chat_type: 'sender',
    query_id: 'AAH' + user.id.toString(36),
    user: JSON.stringify({ allows_write_to_pm: true, ...user }),
    ...(startParam ? { start_param: startParam } : {}),
  }
  const lines = Object.entries(fields)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest()
  const hash = createHmac('sha256', secret).update(lines.join('\n')).digest('hex')
  return new URLSearchParams({ ...fields, hash }).toString()
}

/**
 * The address a Mini App opens with: Telegram puts the launch parameters in the fragment
 * (tgWebAppData is the URL-encoded initData).
 */
export function launchUrl(pageUrl: string, initData: string, theme: Record<string, string> = {}) {
  const fragment = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify(theme),
  })
  return `${pageUrl}#${fragment.toString()}`
}
