import type { ActionFunctionArgs } from '@remix-run/node'
import type { TFunction } from 'i18next'
import { TAKEN, isEmailTaken, isPhoneTaken, isUsernameTaken } from '~/models/user.server.ts'
import { hitFromAddress, limits } from '~/services/rate-limit.server.ts'
import { getOptionalUser } from '~/services/session.server.ts'
import { json, methodNotAllowed, readJson, tooMany, translator } from '~/utils/api.server.ts'
import { emailSchema, phoneSchema, usernameSchema } from '~/validation/user.ts'

// Live availability of username, email and phone ({valid, message}, docs/rules.md#availability-checks).
export type Availability = { valid: boolean; message: string }

const checks = {
  username: { schema: usernameSchema, taken: isUsernameTaken },
  email: { schema: emailSchema, taken: isEmailTaken },
  phone: { schema: phoneSchema, taken: isPhoneTaken },
} as const

export async function checkAvailability(
  field: keyof typeof checks,
  value: unknown,
  t: TFunction,
  exceptUserId?: string,
): Promise<Availability> {
  const { schema, taken } = checks[field]
  const parsed = schema.safeParse(value)
  if (!parsed.success)
    return { valid: false, message: t(parsed.error.issues[0]?.message ?? 'api.invalid') }
  if (await taken(parsed.data, exceptUserId)) return { valid: false, message: t(TAKEN[field]) }
  return { valid: true, message: t(`validation.${field}Available`) }
}

/** The action of /api/auth/validate-{field}: rate-limited per address (an IPv6 /64 is one), JSON in and out. */
export function availabilityAction(field: keyof typeof checks) {
  return async ({ request, context }: ActionFunctionArgs) => {
    if (request.method !== 'POST') return methodNotAllowed(request)
    const t = await translator(request)
    const wait = await hitFromAddress('validate-ip', context.clientIp, limits.validatePerIp)
    if (wait) return tooMany(t, wait)
    const body = await readJson(request, t)
    const user = await getOptionalUser(request)
    return json(await checkAvailability(field, body[field], t, user?.id))
  }
}
