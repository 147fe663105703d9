import type { LoaderFunctionArgs } from '@remix-run/node'
import { listFinished } from '~/models/admin-finished.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed } from '~/utils/api.server.ts'
import { pageParam } from '~/utils/http.ts'
import { toMajor } from '~/utils/money.ts'

/** Newest first, `?page=` of 20, with the savings against the retail price. */
export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () => {
    const result = await listFinished(pageParam(new URL(request.url).searchParams.get('page')))
    return json({
      ...result,
      auctions: result.auctions.map((a) => ({
        ...a,
        retailPrice: toMajor(a.retailPrice),
        finalPrice: toMajor(a.finalPrice),
        savings: toMajor(a.savings),
      })),
    })
  })
}

export const action = ({ request }: { request: Request }) => methodNotAllowed(request)
