// npm run restore [-- --in FILE]; in the container, on a new volume:
//   docker run --rm -i -v NEW_VOLUME:/app/.data -e EMBEDDED_SERVICES=1 penny-auction restore < pa.backup
// Brings a backup (`npm run backup`) back into an empty database and an empty Redis, then runs
// the balances check (`npm run balances`) on what it restored. Exit codes: 0 restored and
// checked, 2 refused (the target is not empty, the file is cut off or from a newer version;
// nothing was restored), 3 restored but the check found a difference, 1 any other failure.
import { createReadStream } from 'node:fs'
import { parseArgs } from 'node:util'
import { imageStoreOf } from '../app/services/images/store.server.ts'
import { createRedis, redisTarget, type Logger } from '../engine/index.ts'
import { checkBalances } from './backup/balances.ts'
import { BadBackup, describeCounts } from './backup/format.ts'
import { restoreBackup, RestoreRefused } from './backup/load.ts'
import { storeSettings } from './backup/settings.ts'

const say = (line: string) => process.stdout.write(`[restore] ${line}\n`)

const log: Logger = {
  debug: () => {},
  info: () => {},
  warn: (message, fields) => say(`${message} ${JSON.stringify(fields ?? {})}`),
  error: (message, fields) => say(`${message} ${JSON.stringify(fields ?? {})}`),
}

async function main() {
  const { values } = parseArgs({ options: { in: { type: 'string' } }, strict: true })
  if (!values.in && process.stdin.isTTY)
    throw new RestoreRefused(
      'give the backup on standard input (docker run -i … restore < FILE) or with --in FILE',
    )
  const env = storeSettings()
  const redis = createRedis(redisTarget(env), { maxRetriesPerRequest: 2 })
  redis.on('error', () => {})
  try {
    const input = values.in ? createReadStream(values.in) : process.stdin
    const result = await restoreBackup(
      {
        databaseUrl: env.DATABASE_URL,
        redis,
        prefix: env.REDIS_PREFIX,
        images: imageStoreOf(env),
        log,
      },
      input,
    )
    say(`backup of ${result.header.at} (version ${result.header.version})`)
    say(`restored ${describeCounts(result.counts)}`)
    const { already, written, dropped } = result.outbox
    say(
      `outbox entries: ${written} written to Postgres now, ${already} it held already` +
        (dropped ? `, ${dropped} dropped (their user or auction was gone)` : ''),
    )
    if (result.migratedAfter.length)
      say(`migrated past the backup after loading it: ${result.migratedAfter.join(', ')}`)
    say(
      'Redis is left empty: the first start loads every auction from Postgres (live ones get a fresh 10 s timer). ' +
        'The balances check follows.',
    )
  } finally {
    redis.disconnect()
  }
  const code = await checkBalances(env)
  if (code !== 0) {
    process.stderr.write(
      `[restore] the balances check found differences (exit ${code}): see above\n`,
    )
    process.exitCode = code === 3 ? 3 : 1
  }
}

main().catch((error: unknown) => {
  const refused = error instanceof RestoreRefused || error instanceof BadBackup
  const text =
    error instanceof Error
      ? refused
        ? error.message
        : (error.stack ?? error.message)
      : String(error)
  process.stderr.write(`[restore] ${refused ? 'refused' : 'failed'}: ${text}\n`)
  process.exitCode = refused ? 2 : 1
})
