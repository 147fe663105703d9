import type { TFunction } from 'i18next'
import type { z } from 'zod'
import { refuseAdminForm, saveAdminForm } from '~/services/admin.server.ts'
import { readAuctionForm } from '~/services/images/upload.server.ts'

/**
 * The action of an auction's create or edit dialog: the form read by `readAuctionForm`, a
 * refused image said at the `image` field, then `saveAdminForm` with the toast titled
 * `form.failed`.
 */
export async function saveAuctionForm<Schema extends z.ZodTypeAny>(
  request: Request,
  t: TFunction,
  schema: Schema,
  save: (value: z.output<Schema>) => Promise<Response>,
) {
  const { submission, refused } = await readAuctionForm(request, schema)
  if (refused) {
    const result = submission.reply({ fieldErrors: { image: [refused.key] } })
    return refuseAdminForm(t, refused.status, result, t('form.failed'))
  }
  return saveAdminForm(t, submission, t('form.failed'), save)
}
