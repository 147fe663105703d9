// CPU per bid and per page through nginx (deploy/nginx) with one and with two instances. The web
// tier scales linearly when a request costs the instances the same CPU with two as with one
// (within 10 %). Pages are a signed-in person's (private: nginx passes them all on); bids go
// through the JSON API. `npm run bench:nginx [-- --seconds 8 --users 2000 --concurrency 64]`
import { startNginx, type Nginx } from '../tests/setup/nginx.ts'
import { latencyText, outcomeText, perSecond, type LoadSpec } from './load.ts'
import { loadWithCpu, startSite, type Site } from './site.ts'
import { benchArgs, fmt } from './support.ts'
import { processStats } from './viewers.ts'

const { numbers } = benchArgs({
  seconds: 8,
  warmup: 2,
  users: 2000,
  auctions: 50,
  concurrency: 64,
})
const common = {
  concurrency: numbers.concurrency,
  warmupSeconds: numbers.warmup,
  seconds: numbers.seconds,
}
const say = (line: string) => process.stdout.write(`${line}\n`)

type Figures = { rate: number; latency: string; failures: string; server: number; nginx: number }

const nginxCpuMs = (nginx: Nginx) =>
  nginx.pids().reduce((sum, pid) => sum + processStats(pid).cpuMs, 0)

async function measure(site: Site, nginx: Nginx, spec: LoadSpec): Promise<Figures> {
  const before = nginxCpuMs(nginx)
  const { report, used } = await loadWithCpu(site, spec)
  const answers = Math.max(1, report.answeredAll)
  return {
    rate: perSecond(report.accepted, report),
    latency: latencyText(report),
    failures: outcomeText(report),
    server: (used.servers ?? NaN) / answers,
    nginx: (nginxCpuMs(nginx) - before) / answers,
  }
}

async function run(instances: number) {
  const site = await startSite({
    name: 'nginx',
    people: numbers.users,
    auctions: numbers.auctions,
    instances,
  })
  try {
    const nginx = await startNginx(site.origins.map((origin) => new URL(origin).host))
    try {
      const cookies = site.people.map((person) => person.cookie)
      say(`${instances} instance(s): bids through nginx...`)
      const bids = await measure(site, nginx, {
        ...common,
        mode: 'bids',
        expect: 'bid',
        via: 'api',
        targets: [nginx.url],
        cookies,
        auctions: site.auctions,
        periodMs: 1_050,
        minGapMs: 1_000,
      })
      say(`${instances} instance(s): signed-in pages through nginx...`)
      const pages = await measure(site, nginx, {
        ...common,
        mode: 'pages',
        expect: 'ok',
        targets: [nginx.url],
        paths: ['/', '/auctions', ...site.auctions.map((auction) => `/auction/${auction.slug}`)],
        cookies,
      })
      return { bids, pages }
    } finally {
      await nginx.stop()
    }
  } finally {
    await site.close()
  }
}

const one = await run(1)
const two = await run(2)
const row = (label: string, a: Figures, b: Figures, unit: string) => {
  const ratio = b.server / a.server
  return [
    `${label.padEnd(22)}1 instance: ${fmt(a.rate)}/s ${a.latency}`,
    `${''.padEnd(22)}2 instances: ${fmt(b.rate)}/s ${b.latency}`,
    `${''.padEnd(22)}instances' CPU per ${unit}: ${fmt(a.server, 2)} ms -> ${fmt(b.server, 2)} ms (${fmt(ratio, 2)}x; ${Math.abs(ratio - 1) <= 0.1 ? 'linear' : 'not linear'}: goal within 10 %)`,
    `${''.padEnd(22)}nginx CPU per ${unit}: ${fmt(a.nginx, 3)} ms -> ${fmt(b.nginx, 3)} ms; failures: ${a.failures} / ${b.failures}`,
  ]
}
say(
  [
    '',
    ...row('bids (API)', one.bids, two.bids, 'bid'),
    ...row('pages (signed in)', one.pages, two.pages, 'page'),
    '',
  ].join('\n'),
)
