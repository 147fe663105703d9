import type { Api } from 'grammy'
import type { BotCommand } from 'grammy/types'
import { fallbackLanguage, supportedLanguages, type Language } from '~/i18n/config.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'

// The bot's commands menu, in each of the site's languages (docs/rules.md#telegram):
// setMyCommands (https://core.telegram.org/bots/api#setmycommands) with a `language_code` per
// language, and once without one for every other language, in the site's default language
// (which is what the bot answers them in, app/services/telegram/config.server.ts). Only private
// chats: the bot answers nothing else. A command is 1-32 lowercase letters, digits and
// underscores, its description 1-256 characters (https://core.telegram.org/bots/api#botcommand).

const PRIVATE_CHATS = { type: 'all_private_chats' } as const

const COMMANDS = [
  ['bid', 'bot.commands.bid'],
  ['watchlist', 'bot.commands.watchlist'],
  ['balance', 'bot.commands.balance'],
  ['help', 'bot.commands.help'],
  ['stop', 'bot.commands.stop'],
] as const

/** The menu in one language. */
export async function commandsIn(language: Language): Promise<BotCommand[]> {
  const t = await getFixedT(language, 'telegram')
  return COMMANDS.map(([command, key]) => ({ command, description: t(key) }))
}

/** Sets the menu for each language and the default one (the default language's). */
export async function setCommandsMenu(api: Api) {
  for (const language of supportedLanguages)
    await api.setMyCommands(await commandsIn(language), {
      scope: PRIVATE_CHATS,
      language_code: language,
    })
  await api.setMyCommands(await commandsIn(fallbackLanguage), { scope: PRIVATE_CHATS })
}
