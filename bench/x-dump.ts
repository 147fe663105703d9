import { writeFileSync } from 'node:fs'
import { startSite } from './site.ts'
const site = await startSite({ name: 'xdump', people: 4, auctions: 100, upcoming: 24 })
try {
  for (const [name, path] of [['home', '/'], ['auctions', '/auctions'], ['auction', `/auction/${site.auctions[0]!.slug}`]]) {
    for (const mode of ['shared', 'full']) {
      const cookie = site.people[0]!.cookie + (mode === 'full' ? '; toast=x' : '')
      const res = await fetch(site.origins[0] + path!, { headers: { cookie } })
      writeFileSync(`/tmp/dump-${name}-${mode}.html`, await res.text())
      console.log(name, mode, res.status, res.headers.get('x-page-cache'))
    }
  }
} finally { await site.close() }
