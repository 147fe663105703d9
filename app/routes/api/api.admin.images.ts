import type { ActionFunctionArgs } from '@remix-run/node'
import { adminApi } from '~/services/admin.server.ts'
import { storeProductImage } from '~/services/images/product-image.server.ts'
import { fileBytes } from '~/services/images/upload.server.ts'
import { apiError, json, methodNotAllowed } from '~/utils/api.server.ts'
import { formOf } from '~/utils/form.server.ts'
import { BodyTooLarge, MAX_UPLOAD_BYTES } from '~/utils/request-body.server.ts'

/**
 * POST multipart/form-data with the file in `image` -> 201 `{imageUrl, width, height}`: a product
 * image kept in its widths (docs/rules.md#product-images), for an auction's `imageUrl`. A file
 * that is not taken is a DomainError, answered by adminApi with its status and reason.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(request)
  return adminApi(request, async (t) => {
    let form: FormData | null
    try {
      form = await formOf(request, MAX_UPLOAD_BYTES)
    } catch (error) {
      if (error instanceof BodyTooLarge) return apiError(413, t('api.tooLarge'))
      throw error
    }
    const file = form?.get('image')
    if (!(file instanceof File) || file.size === 0) return apiError(400, t('errors.imageMissing'))
    return json(await storeProductImage(await fileBytes(file)), 201)
  })
}

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
