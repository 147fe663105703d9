import { createHash } from 'node:crypto'
import { z } from 'zod'
import { imageSettings, type ImageSettings } from './env-fields.server.ts'
import {
  demoProblems,
  imageStoreProblems,
  originProblems,
  providerProblems,
  redisProblems,
} from './env-problems.server.ts'
import { pushProblems } from './env-push.server.ts'
import { envSchema, type ParsedEnv } from './env-schema.server.ts'
import { telegramProblems } from './env-telegram.server.ts'

export type { ImageSettings } from './env-fields.server.ts'

// The one place the environment is read and validated.
// A bad value stops the start with a message naming the variable.

export type Env = ParsedEnv & { PAYMENT_SANDBOX_SECRET: string }

/** Secrets for signed cookies: the first signs, every one verifies. */
export function cookieSecrets(env: Env): string[] {
  return [env.SESSION_SECRET, ...env.SESSION_SECRET_PREVIOUS]
}

export class EnvError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Invalid environment:\n${issues.map((i) => `  - ${i}`).join('\n')}`)
    this.name = 'EnvError'
  }
}

const DEV_SESSION_SECRET = 'development-only-secret-never-use-in-production'

/** The environment without its empty values: `PORT= npm start` behaves like no PORT at all. */
function withoutEmpty(source: Record<string, string | undefined>) {
  const input: Record<string, string | undefined> = { ...source }
  for (const key of Object.keys(input)) if (input[key] === '') delete input[key]
  return input
}

/** A schema's problems, each naming its variable. */
function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)'
    const message =
      issue.code === 'invalid_type' && issue.received === 'undefined'
        ? 'is required'
        : issue.message
    return `${name}: ${message}`
  })
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const input = withoutEmpty(source)
  if (!input.SESSION_SECRET && input.NODE_ENV !== 'production') {
    input.SESSION_SECRET = DEV_SESSION_SECRET
  }
  const result = envSchema.safeParse(input)
  const redis = redisProblems(input)
  if (!result.success) throw new EnvError([...issuesOf(result.error), ...redis])
  const problems = [
    ...redis,
    ...imageStoreProblems(result.data),
    ...providerProblems(result.data),
    ...originProblems(result.data),
    ...demoProblems(result.data),
    ...pushProblems(result.data),
    ...telegramProblems(result.data),
  ]
  if (problems.length > 0) throw new EnvError(problems)
  return {
    ...result.data,
    PAYMENT_SANDBOX_SECRET:
      result.data.PAYMENT_SANDBOX_SECRET ??
      createHash('sha256').update(`payment-sandbox:${result.data.SESSION_SECRET}`).digest('hex'),
  }
}

/** Only the image store's settings (the seed's), validated as parseEnv does. */
export function parseImageSettings(
  source: Record<string, string | undefined> = process.env,
): ImageSettings {
  const result = z.object(imageSettings).safeParse(withoutEmpty(source))
  if (!result.success) throw new EnvError(issuesOf(result.error))
  const problems = imageStoreProblems(result.data)
  if (problems.length > 0) throw new EnvError(problems)
  return result.data
}
let cached: Env | undefined
export function getEnv(): Env {
  cached ??= parseEnv()
  return cached
}
