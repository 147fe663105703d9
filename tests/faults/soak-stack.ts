// The stack of the money soak test (money-soak.faults.ts) and the faults done to it: two
// instances on a Redis of the test's own (AOF, fsync on every write) and on Postgres through a
// proxy that can be cut, paying with the Freedom Pay fake.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FreedomPayFake } from '../support/freedompay-fake.ts'
import { startRedisServer, type RedisProcess } from '../setup/redis-servers.ts'
import {
  freePort,
  readiness,
  runBalances,
  sleep,
  startApp,
  waitFor,
  type App,
  type Scenario,
} from './harness.ts'
import { proxyTo, throughProxy, type TcpProxy } from './tcp-proxy.ts'

export class SoakStack {
  readonly apps: (App | undefined)[] = []
  private readonly ports: number[] = []
  private redisServer: RedisProcess | undefined
  private redisPort = 0
  private proxy: TcpProxy | undefined
  private dir = mkdtempSync(path.join(tmpdir(), 'pa-faults-soak-'))
  private turn = 0

  constructor(
    private readonly scenario: Scenario,
    private readonly fake: FreedomPayFake,
    private readonly instances = 2,
  ) {}

  get redisUrl() {
    return `redis://127.0.0.1:${this.redisPort}`
  }

  async start() {
    this.redisPort = await freePort()
    await this.startRedis()
    this.proxy = await proxyTo(this.scenario.databaseUrl, await freePort())
    for (let i = 0; i < this.instances; i++) this.ports.push(await freePort())
    for (let i = 0; i < this.instances; i++) await this.startInstance(i)
  }

  /** An instance that is up, in turn: what a balancer in front would do. */
  target = () => {
    const up = this.apps.filter((app): app is App => app !== undefined && !app.exited())
    if (up.length === 0) return `http://127.0.0.1:${this.ports[0]}`
    return up[this.turn++ % up.length]!.url
  }

  /** Faults survived so far, by kind. */
  readonly faults: Record<string, number> = {}
  private count(kind: string) {
    this.faults[kind] = (this.faults[kind] ?? 0) + 1
  }

  /** Redis killed with SIGKILL and started again 2 s later on its append-only file. */
  async restartRedis() {
    await this.redisServer?.stop('SIGKILL')
    await sleep(2_000)
    await this.startRedis()
    await this.readyAll()
    this.count('Redis restarts')
  }

  /**
   * One instance killed with SIGKILL and started again on its port `downMs` later; `meanwhile`
   * runs while it is down.
   */
  async killInstance(index: number, downMs: number, meanwhile: () => Promise<unknown>) {
    const app = this.apps[index]!
    app.child.kill('SIGKILL')
    await waitFor('the killed instance to exit', async () => app.exited(), 5_000, 20)
    this.apps[index] = undefined
    await Promise.all([sleep(downMs), meanwhile()])
    await this.startInstance(index)
    this.count('instances killed')
  }

  /** Postgres away for the instances (the proxy cut) for `ms`; `meanwhile` runs during it. */
  async postgresAway(ms: number, meanwhile: () => Promise<unknown>) {
    await this.proxy!.cut()
    await Promise.all([sleep(ms), meanwhile()])
    await this.proxy!.listen()
    await this.readyAll()
    this.count('Postgres outages')
  }

  /**
   * Redis loses its data and is recovered as docs/operations.md ("Recover from the loss of
   * Redis") says: the instances stopped, Redis started empty, one instance started (it loads
   * the auctions from Postgres), `npm run balances` run and clean, the other instance started.
   * Returns what `npm run balances` printed.
   */
  async emptyRedis() {
    await Promise.all(this.apps.map((app) => app?.stop()))
    this.apps.fill(undefined)
    await this.redisServer?.stop('SIGKILL')
    rmSync(this.dir, { recursive: true, force: true })
    mkdirSync(this.dir)
    await this.startRedis()
    await this.startInstance(0)
    const report = await this.balancesScript()
    for (let i = 1; i < this.instances; i++) await this.startInstance(i)
    this.count('Redis losses')
    return report
  }

  /**
   * `npm run balances` as an operator runs it, until it is clean. The instance started is live:
   * an auto-bidder may bid between the script's reading of Redis and of Postgres, so a report
   * can be a moment's difference the next run no longer shows; one that stays fails the test.
   */
  async balancesScript() {
    let last = { code: -1, stdout: '' }
    await waitFor(
      '`npm run balances` to find nothing',
      async () => {
        last = await runBalances(this.scenario, this.redisUrl)
        return last.code === 0
      },
      20_000,
      500,
    ).catch(() => {
      throw new Error(`npm run balances exited with ${last.code}:\n${last.stdout}`)
    })
    return last.stdout.trim()
  }

  async stop() {
    if (this.proxy && !this.proxy.isUp) await this.proxy.listen().catch(() => {})
    await Promise.all(this.apps.map((app) => app?.stop()))
    await this.proxy?.cut()
    await this.redisServer?.stop('SIGTERM')
    rmSync(this.dir, { recursive: true, force: true })
  }

  private async startRedis() {
    const args = ['--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '']
    this.redisServer = await startRedisServer(this.redisPort, args)
  }

  private async startInstance(index: number) {
    this.apps[index] = await startApp({
      databaseUrl: throughProxy(this.scenario.databaseUrl, this.proxy!.port),
      redisUrl: this.redisUrl,
      prefix: this.scenario.prefix,
      label: `web-${index + 1}`,
      port: this.ports[index],
      env: {
        PAYMENT_PROVIDER: 'freedompay',
        FREEDOMPAY_MERCHANT_ID: this.fake.merchantId,
        FREEDOMPAY_SECRET_KEY: this.fake.secretKey,
        FREEDOMPAY_API_URL: this.fake.url,
        FREEDOMPAY_TEST_MODE: '1',
      },
    })
  }

  /** Waits until every instance that is up answers /readyz 200; says what they answered if not. */
  private async readyAll() {
    let last: (Awaited<ReturnType<typeof readiness>> | string)[] = []
    await waitFor(
      'every instance ready again',
      async () => {
        last = await Promise.all(
          this.apps.map((app) => (app ? readiness(app).catch(String) : 'stopped')),
        )
        return last.every((r) => r === 'stopped' || (typeof r !== 'string' && r.status === 200))
      },
      30_000,
    ).catch((error: unknown) => {
      const dead = this.apps.filter((app) => app?.exited())
      const said = dead.map((app) => `${app!.url} exited (${app!.exited()}):\n${app!.output()}`)
      throw new Error(`${String(error)}: ${JSON.stringify(last)}\n${said.join('\n')}`)
    })
  }
}
