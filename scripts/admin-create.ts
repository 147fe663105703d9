// npm run admin:create -- --username NAME [--password PASS] [--email EMAIL]
// Creates an admin, or promotes an existing user to admin (setting the password when given).
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import argon2 from 'argon2'
import { z } from 'zod'
import { createPrismaClient, Role, type PrismaClient } from '../app/utils/db.server.ts'

export const USAGE =
  'Usage: npm run admin:create -- --username NAME [--password PASS] [--email EMAIL]\n' +
  '  --password is required when the user does not exist yet.'

/** A problem with the input: printed as is, without a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError'
}

const argsSchema = z.object({
  username: z
    .string({ required_error: '--username is required' })
    .min(3, 'username must be at least 3 characters')
    .regex(/^[\p{L}\p{N}_.-]+$/u, 'username may contain only letters, digits, _ . and -'),
  password: z.string().min(6, 'password must be at least 6 characters').optional(),
  email: z.string().trim().toLowerCase().email('email must be a valid email address').optional(),
})

export type AdminArgs = z.infer<typeof argsSchema>

export function parseAdminArgs(argv: string[]): AdminArgs {
  let values: Record<string, unknown>
  try {
    ;({ values } = parseArgs({
      args: argv,
      options: {
        username: { type: 'string' },
        password: { type: 'string' },
        email: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }))
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
  }
  const parsed = argsSchema.safeParse(values)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => issue.message).join('; ')
    throw new UsageError(`${problems}\n${USAGE}`)
  }
  return parsed.data
}

function hashPassword(password: string) {
  return argon2.hash(password, { type: argon2.argon2id })
}

export async function createOrPromoteAdmin(prisma: PrismaClient, args: AdminArgs): Promise<string> {
  const { username, password } = args
  const existing = await prisma.user.findUnique({
    where: { username },
    select: { id: true, role: true },
  })

  if (!existing) {
    if (!password) throw new UsageError(`user ${username} does not exist: --password is required`)
    const email = args.email ?? `${username.toLowerCase()}@admin.local`
    const taken = await prisma.user.findUnique({ where: { email }, select: { username: true } })
    if (taken) throw new UsageError(`email ${email} already belongs to user ${taken.username}`)
    await prisma.user.create({
      data: { username, email, passwordHash: await hashPassword(password), role: Role.admin },
    })
    return `created admin ${username}`
  }

  if (args.email) {
    const taken = await prisma.user.findUnique({
      where: { email: args.email },
      select: { id: true },
    })
    if (taken && taken.id !== existing.id) {
      throw new UsageError(`email ${args.email} already belongs to another user`)
    }
  }
  const passwordHash = password ? await hashPassword(password) : undefined
  await prisma.$transaction(async (tx) => {
    await tx.user.update({
      where: { id: existing.id },
      data: {
        role: Role.admin,
        ...(args.email ? { email: args.email } : {}),
        ...(passwordHash ? { passwordHash } : {}),
      },
    })
    // A new password must not leave sessions opened with the old one alive.
    if (passwordHash) await tx.session.deleteMany({ where: { userId: existing.id } })
  })
  const done =
    existing.role === Role.admin
      ? `${username} is already an admin`
      : `promoted ${username} to admin`
  const changes = [
    password ? 'password set' : null,
    args.email ? `email set to ${args.email}` : null,
  ]
    .filter(Boolean)
    .join(', ')
  return changes ? `${done} (${changes})` : done
}

async function main() {
  const args = parseAdminArgs(process.argv.slice(2))
  const databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl) throw new UsageError('DATABASE_URL is not set; point it at the database')
  // Minimal errors: a failure prints one message, not a code frame.
  const prisma = createPrismaClient(databaseUrl, { errorFormat: 'minimal' })
  try {
    console.log(await createOrPromoteAdmin(prisma, args))
  } finally {
    await prisma.$disconnect()
  }
}

// Prisma's messages start with the failed call; the cause is on the last line.
function lastLine(message: string): string {
  const lines = message.split('\n').filter((line) => line.trim() !== '')
  return lines.at(-1)?.trim() ?? message
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    console.error(
      error instanceof UsageError
        ? `error: ${message}`
        : `admin:create failed: ${lastLine(message)}`,
    )
    process.exit(1)
  })
}
