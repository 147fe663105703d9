// The image's second run: Postgres and Redis outside the container (the host's, or the local
// ones of scripts/services.ts), on a database and a Redis key prefix of the test's own, removed
// afterwards. Read directly here to see what a graceful stop left in Postgres.
import { Redis } from 'ioredis'
import pg from 'pg'
import { ImageTestError } from './podman.ts'

export type External = {
  DATABASE_URL: string
  REDIS_URL: string
  REDIS_PREFIX: string
  /** The bids and ledger rows Postgres holds for a user. */
  written: (username: string) => Promise<{ bids: number; reasons: string[] }>
  remove: () => Promise<void>
}

export async function externalServices(databaseUrl: string, redisUrl: string): Promise<External> {
  const name = `pa_image_${process.pid}`
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  await admin.query(`CREATE DATABASE "${name}"`)
  await admin.end()
  const url = new URL(databaseUrl)
  url.pathname = `/${name}`
  const prefix = `pa-image-${process.pid}`
  return {
    DATABASE_URL: url.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    written: async (username) => {
      const client = new pg.Client({ connectionString: url.toString() })
      await client.connect()
      try {
        const bids = await client.query(
          'SELECT count(*)::int AS n FROM "Bid" b JOIN "User" u ON u.id = b."userId" WHERE u.username = $1',
          [username],
        )
        const ledger = await client.query(
          'SELECT l.reason FROM "BalanceLedger" l JOIN "User" u ON u.id = l."userId" WHERE u.username = $1 ORDER BY l."createdAt"',
          [username],
        )
        return {
          bids: (bids.rows[0] as { n: number }).n,
          reasons: ledger.rows.map((row: { reason: string }) => row.reason),
        }
      } finally {
        await client.end()
      }
    },
    remove: async () => {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await client.end()
      const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 })
      try {
        for (const match of [`{${prefix}}*`, `${prefix}:*`]) {
          let cursor = '0'
          do {
            const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 500)
            if (keys.length > 0) await redis.del(...keys)
            cursor = next
          } while (cursor !== '0')
        }
      } finally {
        redis.disconnect()
      }
    },
  }
}

/** After a graceful stop, Postgres holds the bid and its ledger row: the outbox was written. */
export async function checkWritten(external: External, username: string) {
  const { bids, reasons } = await external.written(username)
  if (bids !== 1 || !reasons.includes('registration_bonus') || !reasons.includes('bid')) {
    throw new ImageTestError(
      `after the stop Postgres holds ${bids} bids and ledger rows [${reasons.join(', ')}] for ${username}: the outbox was not written`,
    )
  }
}
