// The image test's backup round (docs/operations.md "Back up the one-container install",
// docs/decisions/078-backup-inside-the-container.md): the running one-container install is
// backed up with the entrypoint's `backup` verb while three people bid and just after one paid
// for a bid package; the file is restored into a new volume by `restore`; a container started
// on that volume must find balances equal to the ledger, every bid acknowledged before the
// backup began, and the paid payment.
import { createReadStream, createWriteStream, statSync } from 'node:fs'
import { ADMIN, call, check, createLiveAuction, exec, login, type Site } from './checks.ts'
import { IMAGE, podman, say } from './podman.ts'

export type Taken = {
  /** The backup file, on the host. */
  file: string
  auctionId: string
  /** The prices (som) of the bids acknowledged before the backup began. */
  bids: number[]
  /** A bid package paid before the backup began. */
  paymentId: string
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Bids per person: the auction's bid list (50 at most) shows them all. */
const BIDS_EACH = 6

/** A plain form post as a browser without JavaScript sends it; answers the redirect. */
async function post(site: Site, to: string, fields: Record<string, string>, cookie: string) {
  const response = await fetch(`${site.base}${to}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: site.base,
      Cookie: cookie,
    },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  })
  const location = response.headers.get('location') ?? ''
  check(
    response.status >= 300 && response.status < 400 && location,
    `POST ${to}: ${response.status} ${(await response.text()).slice(0, 300)}`,
  )
  return new URL(location, site.base)
}

async function register(site: Site, n: number) {
  const username = `bk${n}${Date.now().toString(36)}`
  const registered = await call(site, '/api/auth/register', {
    body: { username, email: `${username}@mail.kg`, password: 'image-user-123' },
  })
  check(registered.status === 201, `registration: ${registered.status} ${registered.text}`)
  return registered.cookie
}

/** Buys the 50-bid package through the sandbox's checkout, as the topup page does. */
async function buyPackage(site: Site, cookie: string) {
  const checkout = await post(site, '/topup', { intent: 'buy', packageId: 'bids-50' }, cookie)
  const paymentId = decodeURIComponent(checkout.pathname.split('/').at(-1) ?? '')
  const back = await post(site, checkout.pathname, { intent: 'pay' }, cookie)
  check(back.searchParams.get('payment') === paymentId, `the sandbox's payment ended at ${back}`)
  return paymentId
}

/** People bidding once a second, each up to BIDS_EACH times, until stopped. */
function bidding(site: Site, auctionId: string, cookies: string[]) {
  const acknowledged: Array<{ price: number; at: number }> = []
  let stopped = false
  const loops = cookies.map(async (cookie) => {
    for (let placed = 0; placed < BIDS_EACH && !stopped;) {
      const bid = await call(site, `/api/auctions/${auctionId}/bid`, { method: 'POST', cookie })
      if (bid.status === 200) {
        acknowledged.push({ price: bid.json.currentPrice as number, at: Date.now() })
        placed += 1
      }
      await sleep(1_100)
    }
  })
  return {
    acknowledged,
    stop: async () => {
      stopped = true
      await Promise.all(loops)
    },
  }
}

/** Backs up the running install into `file` (on the host) while bids are placed. */
export async function backupWhileBidding(site: Site, file: string): Promise<Taken> {
  const admin = await login(site, ADMIN.username, ADMIN.password)
  const auctionId = await createLiveAuction(site, admin, 'Backup test lot')
  const cookies = [await register(site, 1), await register(site, 2), await register(site, 3)]
  const paymentId = await buyPackage(site, cookies[0]!)
  const bids = bidding(site, auctionId, cookies)
  await sleep(2_500)
  const began = Date.now()
  await podman(['exec', site.container, '/app/scripts/docker-entrypoint.sh', 'backup'], {
    output: createWriteStream(file),
  })
  const took = Date.now() - began
  const during = bids.acknowledged.filter((bid) => bid.at >= began).length
  await bids.stop()
  const before = bids.acknowledged.filter((bid) => bid.at < began).map((bid) => bid.price)
  check(before.length > 0, 'no bid was acknowledged before the backup began')
  say(
    `backup: ${(statSync(file).size / 1e3).toFixed(0)} kB in ${(took / 1000).toFixed(1)} s while ` +
      `bidding (${before.length} bids acknowledged before it began, ${during} while it ran)`,
  )
  return { file, auctionId, bids: before, paymentId }
}

/** `restore` into a new volume, as docs/operations.md says: the file on standard input. */
export async function restoreInto(volume: string, taken: Taken) {
  const started = Date.now()
  const output = await podman(
    [
      'run',
      '--rm',
      '-i',
      '-v',
      `${volume}:/app/.data`,
      '-e',
      'EMBEDDED_SERVICES=1',
      IMAGE,
      'restore',
    ],
    { input: createReadStream(taken.file) },
  )
  check(
    output.includes(' 0 balances differ from the ledger'),
    `the restore's balances check:\n${output}`,
  )
  const restored = output.split('\n').find((line) => line.startsWith('[restore] restored'))
  say(`${restored ?? 'restored'} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

/** On a container started on the restored volume: the ledger, the bids and the payment. */
export async function checkRestored(site: Site, taken: Taken) {
  const audit = await exec(site, 'balances', [])
  check(
    audit.includes(' 0 balances differ from the ledger') &&
      audit.includes('not yet in Postgres: 0'),
    `npm run balances on the restored install:\n${audit}`,
  )
  const list = await call(site, `/api/auctions/${taken.auctionId}/bids`)
  const shown = new Set(
    (Array.isArray(list.json) ? (list.json as Array<{ amount?: number }>) : []).map(
      (bid) => bid.amount,
    ),
  )
  const missing = taken.bids.filter((price) => !shown.has(price))
  check(
    missing.length === 0,
    `bids acknowledged before the backup are missing after the restore (prices ${missing.join(', ')}): ${list.text.slice(0, 500)}`,
  )
  const admin = await login(site, ADMIN.username, ADMIN.password)
  const paid = await call(site, '/api/admin/payments?status=paid', { cookie: admin })
  const payments = (paid.json?.payments ?? []) as Array<{ id?: string }>
  check(
    payments.some((payment) => payment.id === taken.paymentId),
    `the paid payment ${taken.paymentId} is not listed as paid after the restore: ${paid.text.slice(0, 500)}`,
  )
  say(
    `restored install: ${audit.split('\n')[0]}; all ${taken.bids.length} bids acknowledged before the backup and the paid package are there`,
  )
}
