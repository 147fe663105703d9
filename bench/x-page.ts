import { cpuText, loadWithCpu, startSite } from './site.ts'
const paths = process.argv.slice(2)
const site = await startSite({ name: 'xpage', people: 64, auctions: 100, upcoming: 24 })
try {
  for (const path of paths) {
    for (const conc of [1, 16]) {
      const r = await loadWithCpu(site, {
        mode: 'pages', expect: 'ok', targets: site.origins, paths: [path],
        cookies: site.people.map((p) => p.cookie), concurrency: conc, warmupSeconds: 1, seconds: 3,
      })
      console.log(path, 'conc', conc, (r.report.accepted / r.report.seconds).toFixed(0), 'pages/s', cpuText(r))
    }
  }
} finally { await site.close() }
