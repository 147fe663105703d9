// What the image test asks of a running container, as a person and an operator would: health,
// a page, an admin creating an auction, a registration and a bid through the JSON API; after a
// restart on the same data, the user, the bid and a balance that agrees with the ledger.
import { ImageTestError, podman, say } from './podman.ts'

export type Site = { base: string; container: string }
export type Made = { username: string; password: string; auctionId: string }

export const ADMIN = { username: 'imageadmin', password: 'image-admin-123' }

export function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new ImageTestError(what)
}

export async function call(
  site: Site,
  path: string,
  init: { method?: string; body?: unknown; cookie?: string } = {},
) {
  const response = await fetch(`${site.base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'Content-Type': 'application/json',
      'Accept-Language': 'ru',
      // As a browser on the site's own origin (PUBLIC_ORIGIN) sends it.
      Origin: site.base,
      ...(init.cookie ? { Cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(15_000),
  })
  const text = await response.text()
  let json: unknown = null
  try {
    json = JSON.parse(text)
  } catch {
    // Not JSON: the check that reads it says so.
  }
  const cookie = response.headers.get('set-cookie')?.split(';')[0] ?? ''
  return { status: response.status, json: json as Record<string, unknown>, text, cookie }
}

async function logs(site: Site) {
  return podman(['logs', '--tail', '60', site.container]).catch((error: Error) => error.message)
}

/** Waits for `/readyz` to answer ready; fails with the container's log when it exits or is late. */
export async function waitReady(site: Site, ms: number) {
  const deadline = Date.now() + ms
  for (;;) {
    const ready = await fetch(`${site.base}/readyz`, { signal: AbortSignal.timeout(3_000) }).then(
      async (r) => r.status === 200 && (await r.text()) === '{"status":"ready"}',
      () => false,
    )
    if (ready) return
    const state = await podman(['inspect', '--format', '{{.State.Status}}', site.container])
    if (state !== 'running' || Date.now() > deadline) {
      throw new ImageTestError(
        `the container is ${state}, not ready after ${ms / 1000} s:\n${await logs(site)}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

export async function exec(site: Site, tool: string, args: string[]) {
  return podman(['exec', site.container, '/app/scripts/docker-entrypoint.sh', tool, ...args])
}

export async function login(site: Site, username: string, password: string) {
  const response = await call(site, '/api/auth/login', { body: { username, password } })
  check(
    response.status === 200 && response.cookie,
    `login of ${username}: ${response.status} ${response.text}`,
  )
  return response.cookie
}

/** An auction the admin creates through the admin API, once it is live; returns its id. */
export async function createLiveAuction(site: Site, adminCookie: string, title: string) {
  const created = await call(site, '/api/admin/auctions', {
    cookie: adminCookie,
    body: {
      title,
      description: 'A lot made by the image test',
      retailPrice: 1000,
      startTime: new Date(Date.now() + 1_000).toISOString(),
      isBidPackage: false,
    },
  })
  check(created.status === 201, `creating an auction: ${created.status} ${created.text}`)
  const slug = encodeURIComponent(created.json.slug as string)
  const liveBy = Date.now() + 30_000
  while ((await call(site, `/api/auctions/slug/${slug}`)).json?.status !== 'live') {
    check(Date.now() < liveBy, 'the auction did not start within 30 s of its start time')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return created.json.id as string
}

/** The first start: health, a page, an admin, a live auction, a registration and a bid. */
export async function firstVisit(site: Site): Promise<Made> {
  const health = await call(site, '/healthz')
  check(health.status === 200, `/healthz answered ${health.status}`)
  const home = await call(site, '/')
  check(home.status === 200 && home.text.includes('</html>'), `GET / answered ${home.status}`)
  say(`/healthz, /readyz and the home page answer`)

  say(
    await exec(site, 'admin-create', ['--username', ADMIN.username, '--password', ADMIN.password]),
  )
  const admin = await login(site, ADMIN.username, ADMIN.password)
  const auctionId = await createLiveAuction(site, admin, 'Image test lot')

  const username = `img${Date.now().toString(36)}`
  const password = 'image-user-123'
  const registered = await call(site, '/api/auth/register', {
    body: { username, email: `${username}@mail.kg`, password },
  })
  check(registered.status === 201, `registration: ${registered.status} ${registered.text}`)
  const bid = await call(site, `/api/auctions/${auctionId}/bid`, {
    method: 'POST',
    cookie: registered.cookie,
  })
  check(bid.status === 200, `the bid: ${bid.status} ${bid.text}`)
  await findBid(site, registered.cookie, auctionId)
  say(`admin created a live auction, ${username} registered and bid`)
  return { username, password, auctionId }
}

/** The user's bids list the auction; Postgres follows the engine through the outbox, so it may take a moment. */
async function findBid(site: Site, cookie: string, auctionId: string) {
  const deadline = Date.now() + 15_000
  for (;;) {
    const bids = await call(site, '/api/bids/user', { cookie })
    const list = Array.isArray(bids.json) ? (bids.json as Array<{ auction?: { id?: string } }>) : []
    if (list.some((b) => b.auction?.id === auctionId)) return
    check(
      Date.now() < deadline,
      `the user's bids do not show the auction after 15 s: ${bids.status} ${bids.text.slice(0, 500)}`,
    )
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** After a restart on the same data: the user logs in, the bid and the balance are there. */
export async function secondVisit(site: Site, made: Made) {
  const cookie = await login(site, made.username, made.password)
  const me = await call(site, '/api/auth/me', { cookie })
  const balance = (me.json?.user as { bidBalance?: number } | undefined)?.bidBalance
  check(balance === 4, `after the restart the balance is ${balance}, not 5 free bids less one`)
  await findBid(site, cookie, made.auctionId)
  const audit = await exec(site, 'balances', [])
  check(
    audit.includes(' 0 balances differ from the ledger') &&
      audit.includes('not yet in Postgres: 0'),
    `npm run balances in the container:\n${audit}`,
  )
  say(
    `after the restart: ${made.username} logs in with 4 bids, the bid is listed, ${audit.split('\n')[0]}`,
  )
}

/** Stops the container as `docker stop` does; it must exit 0 after a graceful shutdown. */
export async function stopGracefully(site: Site) {
  const started = Date.now()
  await podman(['stop', '--time', '30', site.container])
  const code = await podman(['inspect', '--format', '{{.State.ExitCode}}', site.container])
  const log = await logs(site)
  check(code === '0' && log.includes('"stopped"'), `SIGTERM: exit code ${code}, log:\n${log}`)
  say(
    `stopped with SIGTERM in ${((Date.now() - started) / 1000).toFixed(1)} s (exit 0, outbox written)`,
  )
}
