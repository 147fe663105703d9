import { z } from 'zod'
import { checkbox, optionalText, text } from '~/validation/admin.ts'

// The rules of the admin's bot forms (docs/rules.md#admin-screens): the bot settings, a new bot,
// a bot assigned to an auction.

const delaySeconds = z.coerce
  .number({ invalid_type_error: 'errors.delay' })
  .int('errors.delay')
  .min(1, 'errors.delay')
  .max(10, 'errors.delay')

/** PUT /api/admin/bot-settings sends one changed field; the page sends them all. */
export const botSettingsSchema = z
  .object({
    enabled: checkbox.optional(),
    minDelay: delaySeconds.optional(),
    maxDelay: delaySeconds.optional(),
    activeBots: z.coerce
      .number({ invalid_type_error: 'errors.activeBots' })
      .int('errors.activeBots')
      .min(0, 'errors.activeBots')
      .max(5, 'errors.activeBots')
      .optional(),
  })
  .strict('errors.invalid')
export type BotSettingsInput = z.infer<typeof botSettingsSchema>

export const botCreateSchema = z.object({
  firstName: text(50, 'errors.botName').pipe(z.string().min(1, 'errors.botName')),
  lastName: text(50, 'errors.botName').pipe(z.string().min(1, 'errors.botName')),
  username: optionalText(30).refine(
    (value) => value === null || /^[\p{L}\p{N}_.-]{3,30}$/u.test(value),
    'errors.username',
  ),
  isActive: z.preprocess((value) => (value === undefined ? true : value), checkbox),
})
export type BotCreateInput = z.infer<typeof botCreateSchema>

export const botAssignSchema = z.object({
  botId: z
    .string({ required_error: 'errors.pickBot' })
    .min(1, 'errors.pickBot')
    .max(64, 'errors.pickBot'),
  bidLimit: z.preprocess(
    (value) => (value === '' || value === undefined || value === null ? 0 : value),
    z.coerce
      .number({ invalid_type_error: 'errors.bidLimit' })
      .int('errors.bidLimit')
      .min(0, 'errors.bidLimit')
      .max(100_000, 'errors.bidLimit'),
  ),
})
