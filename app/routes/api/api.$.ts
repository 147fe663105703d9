import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { apiError, translator } from '~/utils/api.server.ts'

// Any address under /api/ that no call claims: 404 with {"error"}, never the HTML page.
async function notFound({ request }: LoaderFunctionArgs | ActionFunctionArgs) {
  return apiError(404, (await translator(request))('api.notFound'))
}

export const loader = notFound
export const action = notFound
