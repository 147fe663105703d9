import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Redis } from 'ioredis'
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, expect, inject, onTestFailed, test } from 'vitest'
import { createRedis, type Engine, type RedisTarget } from '../../engine/index.ts'
import {
  replicasOnline,
  startDataNode,
  startSentinel,
  type RedisProcess,
} from '../setup/redis-servers.ts'
import { readiness } from '../setup/stack.ts'
import {
  account,
  auctionsReach,
  Bidders,
  createPeople,
  createScenario,
  engineThrough,
  expectCleanAnswers,
  finishedOnTime,
  freePort,
  recoveredAfter,
  say,
  showOutputOnFailure,
  startAuctions,
  sleep,
  startApp,
  waitDrained,
  waitFor,
  watchUpdates,
  type App,
  type Scenario,
} from './harness.ts'

// A primary, a replica and three Sentinels of the test's own; two instances reach Redis through
// the Sentinels and acknowledge a bid only once the replica holds it (REDIS_WAIT_REPLICAS=1).
// The primary is killed with SIGKILL during bidding: the Sentinels promote the replica and the
// instances follow it by themselves. A new replica is then started in the lost one's place, as
// an operator would, pointed at the primary the Sentinels name.

const MASTER = 'penny'
const TIMING = { downAfterMs: 1_000, failoverTimeoutMs: 3_000 }

let scenario: Scenario
const apps: App[] = []
const nodes: RedisProcess[] = []
let redis: Redis | undefined
let socket: Socket | undefined
const dir = mkdtempSync(path.join(tmpdir(), 'pa-faults-sentinel-'))
const dataPorts: number[] = []
let engine: Engine | undefined
let auctions: string[] = []

/** For a failure's diagnosis: each Redis's role and clients, each server's readiness, the auctions. */
async function describeRedis() {
  for (const port of dataPorts) {
    const node = createRedis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 0 })
    node.on('error', () => {})
    try {
      const role = JSON.stringify(await node.call('ROLE')).slice(0, 80)
      const clients = String(await node.call('CLIENT', 'LIST'))
        .split('\n')
        .map((line) => line.replace(/^.*?addr=(\S+).*?name=(\S*).*?cmd=(\S+).*$/, '$1 $2 $3'))
      say(
        `Redis on ${port}: ${role}; clients (address, name, last command):\n${clients.join('\n')}`,
      )
    } catch (error) {
      say(`Redis on ${port}: ${String(error)}`)
    } finally {
      node.disconnect()
    }
  }
  for (const app of apps) say(`readiness: ${JSON.stringify(await readiness(app).catch(String))}`)
  say(`auctions: ${JSON.stringify(await engine?.getStates(auctions).catch(String))}`)
}

/** One Sentinel's answer to SENTINEL `args`, on a connection of its own. */
async function askSentinel(port: number, ...args: string[]) {
  const sentinel = createRedis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 0 })
  sentinel.on('error', () => {})
  try {
    return (await sentinel.call('SENTINEL', ...args)) as string[]
  } finally {
    sentinel.disconnect()
  }
}

/** What a Sentinel knows of the primary: the other Sentinels, the replicas, its port. */
async function sentinelView(port: number) {
  const fields = await askSentinel(port, 'master', MASTER)
  const field = (name: string) => fields[fields.indexOf(name) + 1]
  return {
    primaryPort: Number(field('port')),
    others: Number(field('num-other-sentinels')),
    replicas: Number(field('num-slaves')),
  }
}

beforeAll(async () => {
  scenario = await createScenario('sentinel', inject('faultsDatabaseUrl'))
})

afterAll(async () => {
  socket?.disconnect()
  await Promise.all(apps.map((app) => app.stop()))
  redis?.disconnect()
  await Promise.all(nodes.map((node) => node.stop()))
  rmSync(dir, { recursive: true, force: true })
  await scenario?.cleanup()
})

test('the primary killed during bidding: the replica is promoted, nothing acknowledged is lost', async () => {
  showOutputOnFailure(apps)
  onTestFailed(describeRedis)
  const [first, second, ...sentinelPorts] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  )
  dataPorts.push(first!, second!)
  const primary = await startDataNode(first!, dir)
  nodes.push(primary, await startDataNode(second!, dir, first))
  await waitFor('the replica to sync', async () => (await replicasOnline(first!)) === 1, 10_000)
  for (const port of sentinelPorts)
    nodes.push(await startSentinel(port, dir, MASTER, first!, TIMING))
  // A failover needs a quorum of Sentinels that know each other and the replica.
  await waitFor(
    'the Sentinels to find each other and the replica',
    async () => {
      const views = await Promise.all(sentinelPorts.map(sentinelView))
      return views.every((v) => v.others === 2 && v.replicas === 1)
    },
    30_000,
    250,
  )

  const people = await createPeople(scenario.prisma, 8)
  const env = {
    REDIS_SENTINELS: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
    REDIS_MASTER_NAME: MASTER,
    REDIS_WAIT_REPLICAS: '1',
    REDIS_WAIT_TIMEOUT_MS: '500',
  }
  const common = { databaseUrl: scenario.databaseUrl, redisUrl: '', prefix: scenario.prefix, env }
  apps.push(await startApp({ ...common, label: 'web-a' }))
  apps.push(await startApp({ ...common, label: 'web-b' }))
  const [bidsTo, watchOn] = apps as [App, App]
  const target: RedisTarget = {
    sentinels: sentinelPorts.map((port) => ({ host: '127.0.0.1', port })),
    masterName: MASTER,
  }
  engine = engineThrough(scenario, target)
  redis = engine.redis
  auctions = await startAuctions(engine, scenario, 2)
  await auctionsReach(engine, auctions, 'live', 10_000)

  // Bids go to one instance, the socket to the other: its updates cross the Redis adapter
  // (sharded pub/sub on the primary the Sentinels name).
  const watch = await watchUpdates(watchOn.url, auctions[0]!)
  socket = watch.socket
  const updates = watch.updates

  const bidders = new Bidders(people, auctions, () => bidsTo.url)
  bidders.start()
  await sleep(5_000)
  expect(updates.length, 'updates through the adapter before the failover').toBeGreaterThan(0)

  await primary.stop('SIGKILL')
  const killedAt = Date.now()
  await waitFor(
    'the Sentinels to promote the replica',
    async () => (await sentinelView(sentinelPorts[0]!)).primaryPort === second,
    30_000,
    100,
  )
  const promotedAt = Date.now()
  // The lost host's replacement: a replica of the primary the Sentinels name.
  nodes.push(await startDataNode(first!, dir, second))
  await waitFor(
    'the new replica to sync',
    async () => (await replicasOnline(second!)) === 1,
    15_000,
  )
  const replicatedAt = Date.now()
  await recoveredAfter(bidders, updates, replicatedAt)
  const ackedAgainAt = bidders.acks.find((a) => a.at > promotedAt)!.at

  const during = bidders.statuses(killedAt, replicatedAt)
  say(
    `primary killed: replica promoted after ${promotedAt - killedAt} ms, new replica in sync ` +
      `after ${replicatedAt - killedAt} ms, bids acknowledged again after ${ackedAgainAt - killedAt} ms; ` +
      `answers meanwhile: ${JSON.stringify(during)}; all answers: ${JSON.stringify(bidders.statuses())}`,
  )
  expectCleanAnswers(during, apps)

  await auctionsReach(engine, auctions, 'finished', 20_000)
  await finishedOnTime(engine, auctions)
  await waitDrained(engine, 60_000)
  await account('Sentinel failover', engine, auctions, people, bidders.acks)
})
