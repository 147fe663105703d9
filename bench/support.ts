// Shared pieces of the benchmarks: a scratch database and Redis prefix, percentiles.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { PrismaPg } from '@prisma/adapter-pg'
import { createRedis } from '../engine/index.ts'
import { PrismaClient } from '../prisma/generated/client.ts'
import { ensureServices } from '../scripts/services.ts'
import { createDatabase, databaseUrl, dropDatabases } from '../tests/setup/databases.ts'
import { removeKeys } from '../tests/setup/redis-keys.ts'

const root = path.resolve(import.meta.dirname, '..')

/** A scratch database and prefix; on the machine's Redis, or the one at `redisUrl`. */
export async function scratch(name: string, redisUrl?: string) {
  const services = await ensureServices()
  const runId = `${name}_${Date.now().toString(36)}`
  const dbName = `pa_bench_${runId}`
  await createDatabase(services.DATABASE_URL, dbName)
  const url = databaseUrl(services.DATABASE_URL, dbName)
  execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'pipe',
  })
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) })
  const redis = createRedis(redisUrl ?? services.REDIS_URL, { enableAutoPipelining: true })
  const prefix = `bench-${runId}`
  return {
    prisma,
    redis,
    prefix,
    redisUrl: redisUrl ?? services.REDIS_URL,
    databaseUrl: url,
    async close() {
      await removeKeys(redis, prefix)
      await redis.quit()
      await prisma.$disconnect()
      await dropDatabases(services.DATABASE_URL, dbName)
      await services.stop()
    },
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

type OptionConfig = NonNullable<ParseArgsConfig['options']>[string]

/**
 * A benchmark's command-line options: each of `numbers` is `--name N` with its default, read as
 * a number into `numbers`; `options` are parseArgs options of other kinds, read as given into
 * `values`.
 */
export function benchArgs<N extends string, const O extends Record<string, OptionConfig>>(
  numbers: Record<N, number>,
  options: O = {} as O,
) {
  const numeric = Object.fromEntries(
    Object.entries(numbers).map(([name, value]) => [name, { type: 'string', default: `${value}` }]),
  ) as Record<N, OptionConfig>
  const { values } = parseArgs({ options: { ...options, ...numeric } })
  const read = (name: N) => Number((values as Record<string, unknown>)[name])
  const parsed = Object.fromEntries(Object.keys(numbers).map((name) => [name, read(name as N)]))
  return {
    numbers: parsed as Record<N, number>,
    values: values as ReturnType<typeof parseArgs<{ options: O }>>['values'],
  }
}
