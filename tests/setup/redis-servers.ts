// redis-server processes of a test's or a benchmark's own, on ports and in directories of theirs:
// a primary, its replicas, Sentinels (`redis-server <config> --sentinel`, the program Debian's
// redis-sentinel package runs). redis-server is installed from Debian's package when missing
// and this is root (scripts/services.ts).
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { createRedis } from '../../engine/index.ts'
import { redisServerBinary } from '../../scripts/services.ts'
import { waitFor } from './stack.ts'

export type RedisProcess = {
  port: number
  child: ChildProcess
  /** Resolves once the process has exited (at once if it already had). */
  stop: (signal?: NodeJS.Signals) => Promise<void>
}

/** Starts redis-server with `args` and waits until it answers PING (its data loaded). */
export async function startRedisServer(port: number, args: string[]): Promise<RedisProcess> {
  const child = spawn(
    redisServerBinary(),
    [...args, '--port', String(port), '--bind', '127.0.0.1'],
    {
      stdio: 'ignore',
    },
  )
  const probe = createRedis(`redis://127.0.0.1:${port}`, {
    lazyConnect: true,
    retryStrategy: () => null,
  })
  // Refused until the server listens; the loop below asks again.
  probe.on('error', () => {})
  await waitFor(
    `redis-server on port ${port} to answer`,
    async () => {
      await probe.connect().catch(() => {})
      // LOADING errors until the data is read back.
      const pong = await probe.ping().catch(() => null)
      if (pong !== 'PONG') probe.disconnect()
      return pong === 'PONG'
    },
    10_000,
    100,
  )
  probe.disconnect()
  return {
    port,
    child,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.kill(signal)
      return exited
    },
  }
}

/** A data node without persistence: its replicas (or a restart's REPLICAOF) hold the data. */
export function startDataNode(port: number, dir: string, replicaOf?: number) {
  return startRedisServer(port, [
    '--dir',
    dir,
    '--dbfilename',
    `dump-${port}.rdb`,
    '--save',
    '',
    '--appendonly',
    'no',
    // A replica (a restarted primary too) is sent the data at once, not 5 s later.
    '--repl-diskless-sync-delay',
    '0',
    ...(replicaOf ? ['--replicaof', '127.0.0.1', String(replicaOf)] : []),
  ])
}

/** How many replicas are in sync with the primary at `port` (connected and past the first copy). */
export async function replicasOnline(port: number) {
  const redis = createRedis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 0 })
  redis.on('error', () => {})
  try {
    return ((await redis.info('replication')).match(/^slave\d+:.*state=online/gm) ?? []).length
  } finally {
    redis.disconnect()
  }
}

export type SentinelTiming = { downAfterMs: number; failoverTimeoutMs: number }

/** A Sentinel watching the primary at `primaryPort` as `masterName` (quorum 2). */
export function startSentinel(
  port: number,
  dir: string,
  masterName: string,
  primaryPort: number,
  timing: SentinelTiming,
) {
  // Sentinel writes what it learns into its configuration file: one file each.
  const config = path.join(dir, `sentinel-${port}.conf`)
  writeFileSync(
    config,
    [
      `dir ${dir}`,
      `sentinel monitor ${masterName} 127.0.0.1 ${primaryPort} 2`,
      `sentinel down-after-milliseconds ${masterName} ${timing.downAfterMs}`,
      `sentinel failover-timeout ${masterName} ${timing.failoverTimeoutMs}`,
      `sentinel parallel-syncs ${masterName} 1`,
      '',
    ].join('\n'),
  )
  return startRedisServer(port, [config, '--sentinel'])
}
