import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { createLinkToken, unlinkUser } from '~/models/telegram-link.server.ts'
import { requireUser } from '~/services/guards.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { getTelegramConfig, startLink } from '~/services/telegram/config.server.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'
import { readForm } from '~/utils/form.server.ts'

// POST /profile/telegram, the profile's Telegram section (app/components/profile/telegram-section.tsx):
// `intent=link` answers with a redirect to the bot's one-time t.me link (docs/rules.md#telegram),
// `intent=unlink` forgets the linked chat.

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { redirectTo: '/profile' })
  const t = await getFixedT(request, ['telegram', 'common'])
  const config = getTelegramConfig()
  if (!config) return refused(t('common:api.notFound'), 404)
  const intent = (await readForm(request)).get('intent')
  if (intent === 'link') return redirect(startLink(config, await createLinkToken(user.id)), 303)
  if (intent === 'unlink') {
    await unlinkUser(user.id)
    return redirectWithToast('/profile', { type: 'success', description: t('profile.unlinked') })
  }
  return refused(t('common:api.invalid'), 400)
}

/** Only a hand-made post gets here: the section's forms always send a known intent. */
const refused = (text: string, status: number) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
