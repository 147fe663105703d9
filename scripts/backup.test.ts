import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { gunzipSync, gzipSync } from 'node:zlib'
import pg from 'pg'
import { afterAll, expect, inject, test } from 'vitest'
import { folderStore } from '../app/services/images/store.server.ts'
import { paymentReference } from '../app/services/payments/reference.ts'
import { Engine, silentLogger, writeBatch } from '../engine/index.ts'
import {
  createUser,
  liveAuction,
  testEngine,
  testPrisma,
  testRedis,
  uniquePrefix,
  upcomingAuction,
} from '../engine/test-support.ts'
import { createDatabase, databaseUrl } from '../tests/setup/databases.ts'
import { checkBalances } from './backup/balances.ts'
import { writeBackup } from './backup/dump.ts'
import { BackupWriter, BadBackup } from './backup/format.ts'
import { restoreBackup, RestoreRefused } from './backup/load.ts'
import { deployMigrations, knownMigrations } from './backup/migrations.ts'

// The backup and restore of docs/operations.md (docs/decisions/078-backup-inside-the-container.md):
// a backup taken while entries wait in the outbox, restored into an empty database, holds every
// acknowledged bid, ledger row and paid payment, with balances equal to the ledger.

const folders: string[] = []
const clients: pg.Client[] = []
afterAll(async () => {
  for (const client of clients) await client.end().catch(() => {})
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function folder() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pa-backup-'))
  folders.push(dir)
  return dir
}

async function connect(url: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  clients.push(client)
  return client
}

/**
 * A database of this run without a row (dropped with the run's others): without tables, or
 * migrated as far as this version goes (a copy of the run's template).
 */
async function emptyDatabase(migrated = false) {
  const name = `pa_test_${inject('runId')}_restore_${randomBytes(4).toString('hex')}`
  await createDatabase(
    inject('databaseBaseUrl'),
    name,
    migrated ? inject('templateDatabase') : undefined,
  )
  return databaseUrl(inject('databaseBaseUrl'), name)
}

/** The backup of a database and an install's Redis keys, as bytes. */
async function backup(url: string, prefix: string, imagesDir: string | null = null) {
  const chunks: Buffer[] = []
  const sink = new PassThrough()
  sink.on('data', (chunk: Buffer) => chunks.push(chunk))
  const writer = new BackupWriter(sink, true)
  const source = { client: await connect(url), redis: testRedis(), prefix, imagesDir }
  await writeBackup({ ...source, version: 'test' }, writer)
  await writer.close()
  return Buffer.concat(chunks)
}

function restore(bytes: Buffer, url: string, prefix = uniquePrefix(), imagesDir = folder()) {
  const target = { databaseUrl: url, redis: testRedis(), prefix, log: silentLogger }
  return restoreBackup({ ...target, images: folderStore(imagesDir) }, Readable.from([bytes]))
}

/** The backup with its lines changed by `edit`. */
function edited(bytes: Buffer, edit: (lines: string[]) => string[]) {
  const lines = gunzipSync(bytes).toString().split('\n').filter(Boolean)
  return gzipSync(`${edit(lines).join('\n')}\n`)
}

const rowsOf = async (client: pg.Client, sql: string) => (await client.query(sql)).rows
const BIDS = `SELECT id, "auctionId", "userId", amount, "isPrebid", "isAuto" FROM "Bid" ORDER BY id`
const LEDGER = `SELECT "userId", amount, reason, reference FROM "BalanceLedger"
  ORDER BY reference, "userId", amount`
const BALANCES = `SELECT u.id, u."bidBalance",
  (SELECT COALESCE(SUM(amount), 0)::int FROM "BalanceLedger" l WHERE l."userId" = u.id) AS ledger
  FROM "User" u ORDER BY u.id`
const PAYMENTS = `SELECT id, status, bids FROM "Payment" ORDER BY id`
const HOLDS = `SELECT "auctionId", "userId", budget, placed, returned FROM "AutoBid"
  UNION ALL SELECT "auctionId", "userId", 1, 0, 0 FROM "Prebid" ORDER BY 1, 2, 3`

/** Writes the stream's first entry to Postgres without taking it off the stream (a batch in flight). */
async function writeFirstEntry(client: pg.Client, engine: Engine) {
  const [first] = await engine.redis.xrange(engine.keys.outbox, '-', '+', 'COUNT', 1)
  const [id, flat] = first!
  const fields: Record<string, string> = {}
  for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!
  await writeBatch(
    async (work) => {
      await client.query('BEGIN')
      await work((text, params) => client.query(text, params))
      await client.query('COMMIT')
    },
    [{ id, fields }],
    silentLogger,
  )
}

test('a backup taken with entries still in the outbox restores every acknowledged bid, ledger row and paid payment', async () => {
  const sourcePrefix = uniquePrefix()
  const { engine, outbox, prisma } = testEngine({ prefix: sourcePrefix })
  const source = await connect(process.env.DATABASE_URL!)
  const [a, b, c] = [
    await createUser(prisma, 0),
    await createUser(prisma, 0),
    await createUser(prisma, 0),
  ]
  for (const user of [a, b, c])
    expect((await engine.credit(user.id, 10, 'registration_bonus', `welcome:${user.id}`)).ok).toBe(
      true,
    )
  const live = await liveAuction(engine)
  const upcoming = await upcomingAuction(engine)
  expect((await engine.bid(live.id, a.id)).ok).toBe(true)
  expect((await engine.prebid(upcoming.id, b.id)).ok).toBe(true)
  await outbox.drain()

  // Acknowledged, and only in Redis's outbox when the backup is taken.
  expect((await engine.bid(live.id, b.id)).ok).toBe(true)
  expect((await engine.prebid(upcoming.id, c.id)).ok).toBe(true)
  expect((await engine.setAutoBid(live.id, c.id, 3)).ok).toBe(true)
  // A bid package paid: its credit is made before the payment is marked (decision 013).
  const payment = await prisma.payment.create({
    data: { userId: a.id, provider: 'sandbox', amount: 750_00, bids: 50 },
  })
  expect((await engine.credit(a.id, 50, 'topup', paymentReference(payment.id))).ok).toBe(true)
  await prisma.payment.update({ where: { id: payment.id }, data: { status: 'paid' } })
  // One entry Postgres holds already while it is still on the stream (a batch being written).
  await writeFirstEntry(source, engine)

  const images = folder()
  mkdirSync(path.join(images, 'lot-1'))
  writeFileSync(path.join(images, 'lot-1', '480.webp'), 'picture')
  writeFileSync(path.join(images, 'lot-1', '480.webp.a1b2.tmp'), 'half a picture')
  const bytes = await backup(process.env.DATABASE_URL!, sourcePrefix, images)
  await outbox.drain()

  // Migrated already (the restore need not run Prisma): the next test migrates an empty one.
  const url = await emptyDatabase(true)
  const prefix = uniquePrefix()
  const restoredImages = folder()
  const result = await restore(bytes, url, prefix, restoredImages)
  expect(result.counts.images).toBe(1)
  expect(readFileSync(path.join(restoredImages, 'lot-1', '480.webp'), 'utf8')).toBe('picture')
  expect(existsSync(path.join(restoredImages, 'lot-1', '480.webp.a1b2.tmp'))).toBe(false)

  const target = await connect(url)
  for (const query of [BIDS, LEDGER, BALANCES, PAYMENTS, HOLDS])
    expect(await rowsOf(target, query)).toEqual(await rowsOf(source, query))
  for (const row of await rowsOf(target, BALANCES)) expect(row.bidBalance).toBe(row.ledger)
  expect(await rowsOf(target, PAYMENTS)).toEqual([{ id: payment.id, status: 'paid', bids: 50 }])
  expect(await rowsOf(target, BIDS)).toHaveLength(2)
  // Four entries saved: b's bid, c's prebid, c's auto-bid budget and a's credit.
  expect(result.outbox).toEqual({ already: 1, written: 3, dropped: 0 })

  // What the live auctions need comes back when an instance loads them.
  const restored = new Engine({ redis: testRedis(), prisma: testPrisma(url), prefix })
  await restored.loadScripts()
  await restored.loadAllAuctions()
  expect(await restored.getAutoBid(live.id, c.id)).toEqual({ left: 3, placed: 0 })
  expect(await restored.redis.zrange(restored.keys.prebids(upcoming.id), 0, -1)).toEqual([
    b.id,
    c.id,
  ])
  expect(await restored.getBalance(a.id)).toBe(await engine.getBalance(a.id))
  expect(
    await checkBalances({
      DATABASE_URL: url,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: prefix,
    }),
  ).toBe(0)

  // Never into a database that holds rows, nor onto a Redis that holds an install's keys.
  await expect(restore(bytes, url)).rejects.toThrow(RestoreRefused)
  await expect(restore(bytes, await emptyDatabase(), prefix)).rejects.toThrow(
    /Redis already holds the live state/,
  )
  // A backup from a version with a migration this one does not know.
  const newer = edited(bytes, (lines) =>
    lines.map((line) => line.replace('"migrations":["', '"migrations":["29991231000000_later","')),
  )
  await expect(restore(newer, await emptyDatabase())).rejects.toThrow(
    /newer version of the app: this one does not know its migration 29991231000000_later/,
  )
}, 120_000)

test('a backup made before this version’s newest migration is loaded first and migrated after; a cut-off one restores nothing', async () => {
  const known = knownMigrations()
  const older = await emptyDatabase()
  await deployMigrations(older, known.slice(0, -1))
  const client = await connect(older)
  await client.query(
    `INSERT INTO "User" (id, username, email, "bidBalance", "updatedAt") VALUES ('u1', 'older', 'older@example.com', 0, now())`,
  )
  const bytes = await backup(older, uniquePrefix())

  const url = await emptyDatabase()
  const cut = edited(bytes, (lines) => lines.slice(0, -1))
  await expect(restore(cut, url)).rejects.toThrow(BadBackup)
  const target = await connect(url)
  expect(await rowsOf(target, 'SELECT id FROM "User"')).toEqual([])

  const result = await restore(bytes, url)
  expect(result.migratedAfter).toEqual(known.slice(-1))
  expect(await rowsOf(target, 'SELECT id, username FROM "User"')).toEqual([
    { id: 'u1', username: 'older' },
  ])
  const applied = await rowsOf(target, 'SELECT migration_name FROM _prisma_migrations ORDER BY 1')
  expect(applied.map((row) => row.migration_name)).toEqual(known)
}, 180_000)
