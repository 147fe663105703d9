// npm run backup [-- --out FILE]; in the container
//   docker exec pa /app/scripts/docker-entrypoint.sh backup > pa.backup
// A consistent backup of a running install: its Postgres, what only Redis holds that Postgres
// needs (the outbox entries not yet written), and the product images, as one gzip'd file
// (scripts/backup/format.ts) on standard output, or in FILE (written under a temporary name and
// renamed when whole). `npm run restore` brings it back (docs/operations.md, decision 078).
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { imagesDir } from '../app/services/images/store.server.ts'
import { createRedis, redisTarget } from '../engine/index.ts'
import { writeBackup } from './backup/dump.ts'
import { BackupWriter, describeCounts } from './backup/format.ts'
import { appVersion, storeSettings } from './backup/settings.ts'

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } }, strict: true })
  if (!values.out && process.stdout.isTTY)
    throw new Error('the backup is binary: redirect standard output to a file, or give --out FILE')
  const env = storeSettings()
  const client = new pg.Client({ connectionString: env.DATABASE_URL, application_name: 'backup' })
  const redis = createRedis(redisTarget(env), { maxRetriesPerRequest: 2 })
  redis.on('error', () => {})
  const temporary = values.out
    ? path.join(path.dirname(values.out), `.${path.basename(values.out)}.${process.pid}.tmp`)
    : undefined
  try {
    await client.connect().catch((error: unknown) => {
      throw new Error(
        `cannot reach the install's Postgres (${error instanceof Error ? error.message : String(error)}): ` +
          'back up a running install (docker exec … backup)',
      )
    })
    if (temporary) await mkdir(path.dirname(temporary), { recursive: true })
    const out = temporary ? createWriteStream(temporary, { flags: 'wx' }) : process.stdout
    const writer = new BackupWriter(out, Boolean(temporary))
    const counts = await writeBackup(
      {
        client,
        redis,
        prefix: env.REDIS_PREFIX,
        imagesDir: env.IMAGE_STORE === 'local' ? imagesDir(env.DATA_DIR) : null,
        version: appVersion(),
      },
      writer,
    )
    await writer.close()
    if (temporary) await rename(temporary, values.out!)
    process.stderr.write(`[backup] ${describeCounts(counts)}\n`)
    if (env.IMAGE_STORE === 's3')
      process.stderr.write(
        '[backup] the product images are in the bucket (IMAGE_STORE=s3), not here\n',
      )
    if (values.out) process.stderr.write(`[backup] written to ${values.out}\n`)
  } catch (error) {
    if (temporary) await rm(temporary, { force: true })
    throw error
  } finally {
    redis.disconnect()
    await client.end().catch(() => {})
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[backup] failed: ${error instanceof Error ? error.message : String(error)}\n`,
  )
  process.exitCode = 1
})
