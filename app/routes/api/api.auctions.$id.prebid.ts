import type { ActionFunctionArgs } from '@remix-run/node'
import { bidAnswer } from '~/services/bid-answer.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return bidAnswer(request, context.engine, 'prebid', params.id ?? '')
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
