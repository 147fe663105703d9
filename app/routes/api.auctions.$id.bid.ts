import type { ActionFunctionArgs } from '@remix-run/node'
import { bidCall } from '~/services/bid-call.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'

// The production server answers this call itself, ahead of Remix, with the same bidCall
// (server/app.ts); this route serves it in development and anywhere that shortcut is absent.
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  const answer = await bidCall(context.engine, {
    auctionId: params.id ?? '',
    cookie: request.headers.get('Cookie'),
    acceptLanguage: request.headers.get('Accept-Language'),
  })
  return json(answer.body, { status: answer.status, headers: answer.headers })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
