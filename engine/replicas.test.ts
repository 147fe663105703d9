import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort, waitFor } from '../tests/setup/stack.ts'
import { replicasOnline, startDataNode, type RedisProcess } from '../tests/setup/redis-servers.ts'
import { createRedis } from './redis.ts'
import { ACKNOWLEDGED_COMMAND_SLACK_MS, NotReplicated, Replication } from './replicas.ts'
import { createUser, liveAuction, testEngine } from './test-support.ts'

// A primary and a replica of this file's own: an acknowledged write waits for the replica.
const dir = mkdtempSync(path.join(tmpdir(), 'pa-replicas-'))
let primary: RedisProcess
let replica: RedisProcess

beforeAll(async () => {
  primary = await startDataNode(await freePort(), dir)
  replica = await startDataNode(await freePort(), dir, primary.port)
  await waitFor(
    'the replica to sync',
    async () => (await replicasOnline(primary.port)) === 1,
    10_000,
  )
})

afterAll(async () => {
  await Promise.all([primary?.stop(), replica?.stop()])
  rmSync(dir, { recursive: true, force: true })
})

test('without replicas to wait for, acknowledged writes use the main connection', () => {
  const { engine } = testEngine()
  expect(engine.replication.redis).toBe(engine.redis)
})

test('a bid is acknowledged once the replica holds it; without the replica it stays, answered NotReplicated', async () => {
  const redis = createRedis(`redis://127.0.0.1:${primary.port}`, { maxRetriesPerRequest: 2 })
  const copy = createRedis(`redis://127.0.0.1:${replica.port}`)
  const { engine } = testEngine({ redis, replicas: { count: 1, timeoutMs: 1_000 } })
  try {
    expect(engine.replication.redis).not.toBe(redis)
    const auction = await liveAuction(engine)
    const [a, b] = [await createUser(engine.prisma, 5), await createUser(engine.prisma, 5)]
    const first = await engine.bid(auction.id, a.id)
    expect(first.ok).toBe(true)
    // WAIT returned: the replica has applied it.
    expect(await copy.hget(engine.keys.auction(auction.id), 'bids')).toBe('1')
    expect(await copy.hget(engine.keys.user(a.id), 'bal')).toBe('4')
    // The outbox copies to Postgres only what the replica holds.
    const outboxReader = redis.duplicate()
    const caughtUp = () =>
      engine.replication.caughtUp(outboxReader, engine.keys.outboxFence, 'outbox entries')
    await caughtUp()

    copy.disconnect()
    await replica.stop('SIGKILL')
    await waitFor(
      'the primary to lose its replica',
      async () => (await replicasOnline(primary.port)) === 0,
      5_000,
    )
    const started = Date.now()
    const second = engine.bid(auction.id, b.id)
    await expect(second).rejects.toBeInstanceOf(NotReplicated)
    await expect(second).rejects.toThrow('bid written, but 0 of 1 replicas confirmed it in time')
    expect(Date.now() - started).toBeGreaterThanOrEqual(990)
    // The write stays on the primary: the bid counts and was paid for.
    expect(await engine.getState(auction.id)).toMatchObject({ bids: 2, lastBidder: b.id })
    expect(await engine.getBalance(b.id)).toBe(4)
    await expect(caughtUp()).rejects.toThrow('outbox entries written, but 0 of 1 replicas')
    outboxReader.disconnect()
  } finally {
    await engine.close()
    redis.disconnect()
    copy.disconnect()
  }
})

test('an acknowledged write in flight when its connection drops and comes back at once fails rather than hanging', async () => {
  const main = createRedis(`redis://127.0.0.1:${primary.port}`, { maxRetriesPerRequest: 2 })
  const admin = createRedis(`redis://127.0.0.1:${primary.port}`)
  // Two replicas asked for, one there: the WAIT stays in flight for its whole timeout.
  const replication = new Replication(main, { count: 2, timeoutMs: 1_000 })
  try {
    await replication.redis.ping()
    const started = Date.now()
    const confirmed = replication.confirm('bid')
    const settled = confirmed.then(
      () => 'confirmed',
      (error: unknown) => String(error),
    )
    await waitFor(
      'the WAIT to be in flight',
      async () => String(await admin.call('CLIENT', 'LIST')).includes('cmd=wait'),
      2_000,
      20,
    )
    // The server drops the connection (a restart, a role change); ioredis is back within 50 ms.
    await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes')
    const outcome = await settled
    expect(outcome).not.toBe('confirmed')
    expect(Date.now() - started).toBeLessThan(1_000 + ACKNOWLEDGED_COMMAND_SLACK_MS + 2_000)
  } finally {
    await replication.close()
    main.disconnect()
    admin.disconnect()
  }
}, 15_000)
