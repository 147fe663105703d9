import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import argon2 from 'argon2'
import { afterAll, describe, expect, it } from 'vitest'
import { createPrismaClient, Role } from '../app/utils/db.server.ts'
import { createOrPromoteAdmin, parseAdminArgs, UsageError } from './admin-create.ts'

// DATABASE_URL points at this file's own migrated database (tests/setup/per-file.ts).
const prisma = createPrismaClient(process.env.DATABASE_URL ?? '')

afterAll(async () => {
  await prisma.$disconnect()
})

describe('parseAdminArgs', () => {
  it('accepts a username, password and email', () => {
    expect(
      parseAdminArgs(['--username', 'root.admin', '--password', 'secret', '--email', 'A@B.kg']),
    ).toEqual({ username: 'root.admin', password: 'secret', email: 'a@b.kg' })
  })

  it('names each problem', () => {
    expect(() => parseAdminArgs(['--username', 'ab', '--password', '123'])).toThrow(
      /username must be at least 3 characters; password must be at least 6 characters/,
    )
    expect(() => parseAdminArgs(['--username', 'bad name'])).toThrow(/only letters, digits/)
    expect(() => parseAdminArgs(['--password', 'secret'])).toThrow(/--username is required/)
    expect(() => parseAdminArgs(['--username', 'boss', '--nope'])).toThrow(UsageError)
  })
})

describe('createOrPromoteAdmin', () => {
  it('creates an admin with an argon2id hash and a default email', async () => {
    const message = await createOrPromoteAdmin(prisma, { username: 'Chief', password: 'secret1' })
    expect(message).toBe('created admin Chief')
    const user = await prisma.user.findUniqueOrThrow({ where: { username: 'Chief' } })
    expect(user.role).toBe(Role.admin)
    expect(user.email).toBe('chief@admin.local')
    expect(user.passwordHash).toMatch(/^\$argon2id\$/)
    expect(await argon2.verify(user.passwordHash ?? '', 'secret1')).toBe(true)
  })

  it('requires a password to create', async () => {
    await expect(createOrPromoteAdmin(prisma, { username: 'nobody' })).rejects.toThrow(
      /--password is required/,
    )
  })

  it('promotes a user, and a new password signs out their sessions', async () => {
    const user = await prisma.user.create({
      data: { username: 'mira', email: 'mira@example.com', passwordHash: 'x' },
    })
    await prisma.session.create({
      data: { id: 'token-1', userId: user.id, expiresAt: new Date(Date.now() + 60_000) },
    })

    expect(await createOrPromoteAdmin(prisma, { username: 'mira' })).toBe('promoted mira to admin')
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(1)

    expect(await createOrPromoteAdmin(prisma, { username: 'mira', password: 'newpass' })).toBe(
      'mira is already an admin (password set)',
    )
    const updated = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
    expect(updated.role).toBe(Role.admin)
    expect(await argon2.verify(updated.passwordHash ?? '', 'newpass')).toBe(true)
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0)
  })

  it('refuses an email that belongs to someone else', async () => {
    await prisma.user.create({ data: { username: 'owner', email: 'taken@example.com' } })
    await expect(
      createOrPromoteAdmin(prisma, {
        username: 'newcomer',
        password: 'secret1',
        email: 'taken@example.com',
      }),
    ).rejects.toThrow(/already belongs to user owner/)
  })
})

describe('the command', () => {
  const run = promisify(execFile)
  const root = path.resolve(import.meta.dirname, '..')

  it('exits 1 with a message, not a stack trace, on bad input', async () => {
    const failure = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      ['scripts/admin-create.ts', '--username', 'ab'],
      { cwd: root, env: { ...process.env } },
    ).catch((error: { code: number; stderr: string }) => error)
    expect(failure).toMatchObject({ code: 1 })
    const { stderr } = failure as { stderr: string }
    expect(stderr).toMatch(/^error: username must be at least 3 characters/)
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('creates an admin through the CLI', async () => {
    const { stdout } = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      ['scripts/admin-create.ts', '--username', 'cli_admin', '--password', 'secret1'],
      { cwd: root, env: { ...process.env } },
    )
    expect(stdout.trim()).toBe('created admin cli_admin')
    // A new process that compiles the tool first: slow on a busy machine.
  }, 60_000)
})
