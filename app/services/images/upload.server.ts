import { parseWithZod } from '@conform-to/zod'
import type { z } from 'zod'
import { storeProductImage } from '~/services/images/product-image.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { readForm } from '~/utils/form.server.ts'
import { MAX_UPLOAD_BYTES } from '~/utils/request-body.server.ts'

/** The bytes of an uploaded file. */
export async function fileBytes(file: File) {
  return new Uint8Array(await file.arrayBuffer())
}

/**
 * The file a form carries as `image`, when one was chosen, kept as a product image: its address
 * takes the place of the form's `imageUrl`. The refusal when the file is not taken, else null.
 */
export async function keepUploadedImage(form: FormData): Promise<DomainError | null> {
  const file = form.get('image')
  form.delete('image')
  if (!(file instanceof File) || file.size === 0) return null
  try {
    const { imageUrl } = await storeProductImage(await fileBytes(file))
    form.set('imageUrl', imageUrl)
    return null
  } catch (error) {
    if (error instanceof DomainError) return error
    throw error
  }
}

/**
 * An auction's create or edit form (admin only: call it once the admin is known, since it may
 * read 9 MiB): its image kept, its fields parsed by `schema`. A refused image is said on the
 * form's `image` field, the other fields as they were sent, so nothing typed is lost.
 */
export async function readAuctionForm<Schema extends z.ZodTypeAny>(
  request: Request,
  schema: Schema,
) {
  const form = await readForm(request, MAX_UPLOAD_BYTES)
  const refused = await keepUploadedImage(form)
  const submission = parseWithZod(form, { schema })
  return { submission, refused }
}
