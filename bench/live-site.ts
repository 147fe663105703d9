// The site as the phone and Lighthouse benchmarks open it: live auctions with product pictures
// (prisma/seed-pictures, stored as an admin's upload would be) that other people keep going,
// upcoming ones, and one more person to be signed in as. Everything it starts, close() stops.
import { mkdtempSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { storeProductImage } from '../app/services/images/product-image.server.ts'
import { folderStore } from '../app/services/images/store.server.ts'
import { SEED_PICTURES } from '../prisma/seed-pictures/index.ts'
import { root } from '../tests/setup/stack.ts'
import { startSite, type Site } from './site.ts'

/** Two people per live auction take turns bidding on it every few seconds. */
const KEEPERS_PER_AUCTION = 2

export async function startLiveSite(options: {
  name: string
  live: number
  upcoming: number
  /** Another build of the site (a folder with its build/), as bench:phone's --build. */
  build?: string
}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `pa-bench-${options.name}-`))
  const site = await startSite({
    name: options.name,
    people: options.live * KEEPERS_PER_AUCTION + 1,
    auctions: options.live,
    upcoming: options.upcoming,
    env: { DATA_DIR: dataDir },
    builds: options.build ? [path.resolve(options.build)] : undefined,
    async prepare(prisma) {
      const store = folderStore(path.join(dataDir, 'images'))
      const files = Object.values(SEED_PICTURES)
      const auctions = await prisma.auction.findMany({ select: { id: true } })
      for (const [i, { id }] of auctions.entries()) {
        const file = path.join(root, 'prisma/seed-pictures', files[i % files.length]!)
        const png = await sharp(await readFile(file))
          .png()
          .toBuffer()
        const { imageUrl } = await storeProductImage(png, store)
        await prisma.auction.update({ where: { id }, data: { imageUrl } })
      }
    },
  })
  const [person, ...keepers] = site.people
  const keeperOf = (auction: number, turn: number) =>
    keepers[auction * KEEPERS_PER_AUCTION + (turn % KEEPERS_PER_AUCTION)]!
  let keeping = true
  const keeper = (async () => {
    for (let turn = 0; keeping; turn++) {
      await Promise.all(site.auctions.map((a, i) => bid(site, a.id, keeperOf(i, turn))))
      await new Promise((resolve) => setTimeout(resolve, 1_500))
    }
  })()

  return {
    site,
    /** The person the benchmark signs in as: bids on nothing by itself. */
    person: person!,
    /**
     * The person leads no auction (a page would not let them bid): each auction's keepers bid
     * in turn until one is taken, waiting out the 1 s rule.
     */
    async takeTheLead() {
      await Promise.all(
        site.auctions.map(async (auction, i) => {
          for (let attempt = 0; attempt < 8; attempt++) {
            if ((await bid(site, auction.id, keeperOf(i, attempt))).ok) return
            await new Promise((resolve) => setTimeout(resolve, 300))
          }
        }),
      )
    },
    async close() {
      keeping = false
      await keeper
      await site.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A bid through the JSON API: the answer. */
function bid(site: Site, auctionId: string, who: { cookie: string }) {
  const origin = site.origins[0]!
  return fetch(`${origin}/api/auctions/${encodeURIComponent(auctionId)}/bid`, {
    method: 'POST',
    headers: { Cookie: who.cookie, Origin: origin },
  }).then(
    (response) => response.json() as Promise<{ ok?: boolean; error?: string }>,
    () => ({ ok: false }),
  )
}

/** A server that has just started compiles as it goes: each page is rendered a few times first. */
export async function warmUp(origin: string, paths: string[], cookie: string) {
  for (const pagePath of paths)
    for (let i = 0; i < 20; i++)
      await fetch(`${origin}${pagePath}`, {
        headers: { Cookie: cookie, 'Accept-Encoding': 'gzip' },
      }).then((response) => response.arrayBuffer())
}
