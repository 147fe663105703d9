// npm run audit:verify -- <record URL or file>
// Recomputes an auction's record of bids (docs/fair-play.md) and says whether it is whole: every
// place from 1 without gaps, every hash as recomputed, the last one equal to the head. The record
// is GET /api/auctions/{id}/audit (every page of it is read) or a file holding that answer.
// Exits 0 when whole, 1 when not, 2 when the record cannot be read.
import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { verify, type Verdict } from '../engine/index.ts'

export const USAGE = 'Usage: npm run audit:verify -- <https://…/api/auctions/ID/audit | file.json>'

/** What the check needs of an answer; the rest is read unchecked here and checked by verify. */
type RecordPage = {
  auctionId: string
  startTime: string
  head: string
  bids: unknown[]
  next?: number | null
}

export class UnreadableRecord extends Error {
  override name = 'UnreadableRecord'
}

function asPage(value: unknown, where: string): RecordPage {
  const page = value as Partial<RecordPage> | null
  if (
    !page ||
    typeof page.auctionId !== 'string' ||
    typeof page.startTime !== 'string' ||
    typeof page.head !== 'string' ||
    !Array.isArray(page.bids)
  ) {
    throw new UnreadableRecord(
      `${where} is not an auction's record (auctionId, startTime, head, bids)`,
    )
  }
  return page as RecordPage
}

/** Every page of the record at `url`, followed by its `next`. */
async function fetchRecord(url: string): Promise<RecordPage> {
  const pages: RecordPage[] = []
  let after: number | null = 0
  while (after !== null) {
    const address = new URL(url)
    address.searchParams.set('after', String(after))
    const response = await fetch(address, { headers: { Accept: 'application/json' } })
    if (!response.ok) throw new UnreadableRecord(`${address} answered ${response.status}`)
    const page = asPage(await response.json().catch(() => null), String(address))
    pages.push(page)
    after = typeof page.next === 'number' && page.next > after ? page.next : null
  }
  const last = pages.at(-1)!
  return { ...last, bids: pages.flatMap((page) => page.bids) }
}

async function readRecord(source: string): Promise<RecordPage> {
  if (/^https?:\/\//.test(source)) return fetchRecord(source)
  const text = await readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UnreadableRecord(
      `${source}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
    )
  })
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new UnreadableRecord(`${source} is not JSON`)
  }
  return asPage(value, source)
}

export function describe(verdict: Verdict): string {
  if (verdict.whole) return `whole: ${verdict.bids} bids, head ${verdict.head}`
  const at = verdict.seq === null ? '' : ` at bid ${verdict.seq}`
  const why = {
    order: 'a place is missing, repeated or out of order',
    hash: 'a hash does not match the bid and the hash before it',
    head: 'the last hash is not the head',
    shape: 'a bid is not an entry of the record',
  }[verdict.problem]
  return `NOT whole${at}: ${why}`
}

/** Reads and checks `source`; the verdict and the line to print. */
export async function verifySource(source: string) {
  const verdict = verify(await readRecord(source))
  return { verdict, line: describe(verdict) }
}

async function main() {
  const source = process.argv[2]
  if (!source || process.argv.length > 3) {
    console.error(USAGE)
    process.exit(2)
  }
  const { verdict, line } = await verifySource(source)
  console.log(line)
  process.exit(verdict.whole ? 0 : 1)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(2)
  })
}
