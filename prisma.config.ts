// Prisma CLI configuration. The CLI runs fully offline on the JS (wasm) schema engine through a
// driver adapter: docs/decisions/002-prisma-offline-js-engine.md.
import { existsSync } from 'node:fs'
import { defineConfig } from 'prisma/config'
import { migrationAdapter } from './prisma/adapter.ts'

// With a config file Prisma no longer reads .env by itself; variables already set win.
if (existsSync('.env')) process.loadEnvFile('.env')

const databaseUrl = process.env.DATABASE_URL
// The schema's env("DATABASE_URL") must resolve even for commands that never connect (generate,
// format, validate, e.g. in a Docker build): unresolved, the CLI falls back to downloading the
// query engine and fails offline. Commands that connect still fail clearly in migrationAdapter.
process.env.DATABASE_URL ||= 'postgresql://unset@localhost:5432/unset'

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  // A folder: the generator and datasource in schema.prisma, the models by topic beside it.
  schema: 'prisma/schema',
  migrations: {
    path: 'prisma/migrations',
    seed: 'tsx prisma/seed.ts',
  },
  async adapter() {
    return migrationAdapter(databaseUrl)
  },
})
