import type { ActionFunctionArgs } from '@remix-run/node'
import { handleTelegramWebhook } from '~/services/telegram/webhook.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'

// POST /api/telegram/webhook: the bot's updates from Telegram, checked by their secret-token
// header instead of a session (app/services/telegram/webhook.server.ts).

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return handleTelegramWebhook(request, context.engine)
}
