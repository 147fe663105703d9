// A restore migrates in two steps (docs/decisions/078-backup-inside-the-container.md): up to
// the backup's own migrations, then, once the rows are in, the ones this version adds, so that
// they run on the restored rows exactly as an upgrade runs them on a live database.
import { execFile } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { root } from '../run.ts'
import { BadBackup } from './format.ts'

const migrationsDir = path.join(root, 'prisma', 'migrations')
const prisma = path.join(root, 'node_modules', '.bin', 'prisma')

/** The migrations this version of the app has, oldest first. */
export function knownMigrations(): string[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => existsSync(path.join(migrationsDir, name, 'migration.sql')))
    .sort()
}

export type MigrationPlan = {
  /** Applied before the rows are loaded: the backup's own. */
  before: string[]
  /** Applied after: the ones this version has and the backup's did not. */
  after: string[]
}

/** Refuses a backup with a migration this version does not know (made by a newer one). */
export function planMigrations(backup: string[], known: string[]): MigrationPlan {
  const knownSet = new Set(known)
  const unknown = backup.filter((name) => !knownSet.has(name))
  if (unknown.length)
    throw new BadBackup(
      `the backup was made by a newer version of the app: this one does not know its migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Restore it with that version or a newer one`,
    )
  const had = new Set(backup)
  return {
    before: known.filter((name) => had.has(name)),
    after: known.filter((name) => !had.has(name)),
  }
}

async function prismaDeploy(databaseUrl: string, args: string[] = []) {
  try {
    await promisify(execFile)(prisma, ['migrate', 'deploy', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      maxBuffer: 16 * 1024 * 1024,
    })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(`prisma migrate deploy failed:\n${`${stdout}\n${stderr}`.trim().slice(-4000)}`)
  }
}

/**
 * Applies `only` of this version's migrations (all of them when `only` is left out) with
 * `prisma migrate deploy`, which records them as a start would. Prisma applies a folder of
 * migrations: `only` is copied into a folder of its own, named by a config file beside it (in
 * node_modules/.cache, where the config's imports resolve as they do for prisma.config.ts).
 */
export async function deployMigrations(databaseUrl: string, only?: string[]) {
  if (!only) return prismaDeploy(databaseUrl)
  const cache = path.join(root, 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(path.join(cache, 'pa-restore-'))
  try {
    const folder = path.join(dir, 'migrations')
    mkdirSync(folder)
    cpSync(
      path.join(migrationsDir, 'migration_lock.toml'),
      path.join(folder, 'migration_lock.toml'),
    )
    for (const name of only)
      cpSync(path.join(migrationsDir, name), path.join(folder, name), { recursive: true })
    const config = path.join(dir, 'prisma.config.ts')
    writeFileSync(
      config,
      [
        "import { defineConfig } from 'prisma/config'",
        `import { migrationAdapter } from ${JSON.stringify(path.relative(dir, path.join(root, 'prisma', 'adapter.ts')))}`,
        'export default defineConfig({',
        '  experimental: { adapter: true },',
        "  engine: 'js',",
        `  schema: ${JSON.stringify(path.join(root, 'prisma', 'schema'))},`,
        `  migrations: { path: ${JSON.stringify(folder)} },`,
        '  async adapter() {',
        '    return migrationAdapter(process.env.DATABASE_URL)',
        '  },',
        '})',
        '',
      ].join('\n'),
    )
    await prismaDeploy(databaseUrl, ['--config', config])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
