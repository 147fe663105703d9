// The load generator's child process (see load.ts): takes one LoadSpec on its IPC channel,
// runs it and answers with a LoadReport.
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { gunzipSync } from 'node:zlib'
import type { BidLoad, LoadReport, LoadSpec, PageLoad } from './load.ts'

type Answer = { status: number; reason: string | null; bytes: number }

/** One request to target `index mod targets`; resolves with its answer, never rejects. */
type Send = (
  index: number,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
) => Promise<Answer>

const TOAST_COOKIE = /(?:^|[\s,])(?:__Host-)?toast=([^;]*)/

/** The toast a redirect sets (a signed cookie of base64 JSON), or null. */
function toastOf(setCookie: string[] | undefined) {
  for (const header of setCookie ?? []) {
    const raw = TOAST_COOKIE.exec(header)?.[1]
    if (!raw) continue
    const value = decodeURIComponent(raw)
    const data = value.slice(0, value.lastIndexOf('.'))
    try {
      const session = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as Record<
        string,
        { type?: string; title?: string; description?: string } | undefined
      >
      return session.__flash_toast__ ?? null
    } catch {
      return null
    }
  }
  return null
}

/** null when the bid was accepted (or, for `ok`, the answer was 2xx), else a short reason. */
function judge(spec: LoadSpec, response: http.IncomingMessage, body: string): string | null {
  const status = response.statusCode ?? 0
  if (spec.expect === 'ok') return status >= 200 && status < 300 ? null : `${status}`
  if (status === 301 || status === 302 || status === 303) {
    const location = response.headers.location ?? ''
    if (location.startsWith('/login')) return `${status} to the login page`
    const toast = toastOf(response.headers['set-cookie'])
    if (!toast) return `${status} without a toast`
    if (toast.type === 'success') return null
    return `${status} toast: ${toast.description ?? toast.title ?? '?'}`
  }
  if (spec.mode === 'bids' && spec.via === 'fetcher') {
    // The action's status says it: 200 for an accepted bid, the refusal's status otherwise.
    return status === 200 ? null : `${status}`
  }
  try {
    const answer = JSON.parse(body) as { ok?: boolean; error?: string; message?: string }
    if (answer.ok === true) return null
    return `${status} ${answer.error ?? answer.message ?? ''}`.trim()
  } catch {
    return `${status} ${body.replace(/\s+/g, ' ').slice(0, 60)}`
  }
}

async function run(spec: LoadSpec): Promise<LoadReport> {
  const perTarget = Math.max(1, Math.ceil(spec.concurrency / spec.targets.length))
  const targets = spec.targets.map((origin) => ({
    origin,
    url: new URL(origin),
    agent: new http.Agent({ keepAlive: true, maxSockets: perTarget }),
  }))
  const report: LoadReport = {
    seconds: spec.seconds,
    offered: 0,
    sent: 0,
    answered: 0,
    answeredAll: 0,
    acceptedAll: 0,
    accepted: 0,
    outcomes: {},
    latencies: [],
    lags: [],
    bytes: 0,
    cpuMs: 0,
  }

  const began = performance.now() + 20
  const windowStart = began + spec.warmupSeconds * 1000
  const windowEnd = windowStart + spec.seconds * 1000
  const inWindow = (t: number) => t >= windowStart && t <= windowEnd
  let cpu: NodeJS.CpuUsage | undefined
  let cpuMeasured = false
  const measureCpu = () => {
    if (cpuMeasured || !cpu) return
    cpuMeasured = true
    const used = process.cpuUsage(cpu)
    report.cpuMs = (used.user + used.system) / 1000
  }
  const cpuTimers = [
    setTimeout(() => (cpu = process.cpuUsage()), windowStart - performance.now()),
    setTimeout(measureCpu, windowEnd - performance.now()),
  ]
  const readBody = spec.expect === 'bid'

  const send: Send = (index, method, path, headers, body) =>
    new Promise<Answer>((resolve) => {
      const target = targets[index % targets.length]!
      const sentAt = performance.now()
      if (inWindow(sentAt)) report.sent++
      let finished = false
      const done = (answer: Answer) => {
        if (finished) return
        finished = true
        const at = performance.now()
        report.answeredAll++
        if (answer.reason === null) report.acceptedAll++
        if (inWindow(at)) {
          report.answered++
          report.latencies.push(at - sentAt)
          report.bytes += answer.bytes
          if (answer.reason === null) report.accepted++
          else report.outcomes[answer.reason] = (report.outcomes[answer.reason] ?? 0) + 1
        }
        resolve(answer)
      }
      const request = http.request(
        {
          agent: target.agent,
          host: target.url.hostname,
          port: target.url.port,
          method,
          path,
          headers: body
            ? { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }
            : headers,
        },
        (response) => {
          const chunks: Buffer[] = []
          let bytes = 0
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length
            if (readBody) chunks.push(chunk)
          })
          response.on('end', () => {
            const body = Buffer.concat(chunks)
            const gzip = response.headers['content-encoding'] === 'gzip'
            const text = readBody ? (gzip ? gunzipSync(body) : body).toString('utf8') : ''
            done({ status: response.statusCode ?? 0, reason: judge(spec, response, text), bytes })
          })
          response.on('error', () => done({ status: 0, reason: 'network error', bytes }))
        },
      )
      request.setTimeout(30_000, () => request.destroy(new Error('timeout')))
      request.on('error', (error: NodeJS.ErrnoException) =>
        done({ status: 0, reason: `network ${error.code ?? error.message}`, bytes: 0 }),
      )
      request.end(body)
    })

  if (spec.mode === 'bids') await bids(spec, report, send, { began, windowStart, windowEnd })
  else await pages(spec, send, windowEnd)

  for (const target of targets) target.agent.destroy()
  for (const timer of cpuTimers) clearTimeout(timer)
  // The last bidders may be done a little before the window ends.
  measureCpu()
  report.latencies.sort((a, b) => a - b)
  report.lags.sort((a, b) => a - b)
  return report
}

async function bids(
  spec: BidLoad & LoadSpec,
  report: LoadReport,
  send: Send,
  times: { began: number; windowStart: number; windowEnd: number },
) {
  const users = spec.cookies.length
  const offset = spec.turnOffset ?? 0
  report.offered = (users * 1000) / spec.periodMs
  const bidder = async (index: number) => {
    const origin = spec.targets[index % spec.targets.length]!
    // What a browser sends along: its language, and that it takes gzip.
    const base = {
      Cookie: spec.cookies[index]!,
      Origin: origin,
      'Accept-Language': 'en',
      'Accept-Encoding': 'gzip',
    }
    let at = times.began + (index / users) * spec.periodMs
    let answeredAt = -Infinity
    for (let turn = 0; ; turn++) {
      // Never sooner than minGapMs after the answer to this person's last bid (the server's
      // one-a-second rule counts from when it took that bid).
      const due = Math.max(at, answeredAt + spec.minGapMs)
      if (due >= times.windowEnd) break
      // A timer may fire a little early (it counts from the loop's cached time): wait it out.
      for (let wait = due - performance.now(); wait > 0; wait = due - performance.now())
        await new Promise((resolve) => setTimeout(resolve, wait))
      const now = performance.now()
      if (now >= times.windowStart) report.lags.push(Math.max(0, now - due))
      const auction = spec.auctions[(index + turn + offset) % spec.auctions.length]!
      if (spec.via === 'api') {
        await send(index, 'POST', `/api/auctions/${encodeURIComponent(auction.id)}/bid`, base)
      } else {
        // The bid button's post (app/routes/resources.bid.ts): a fetcher's is Remix's data
        // request; a form's without JavaScript names the auction page to come back to.
        const fetcher = spec.via === 'fetcher'
        await send(
          index,
          'POST',
          fetcher ? '/resources/bid.data' : '/resources/bid',
          { ...base, 'Content-Type': 'application/x-www-form-urlencoded' },
          new URLSearchParams({
            intent: 'bid',
            auctionId: auction.id,
            ...(fetcher ? {} : { redirectTo: `/auction/${auction.slug}` }),
          }).toString(),
        )
      }
      // The next turn on this person's own grid, skipping turns its last answer ran into, so
      // that people whose answers came back together (the first bids of the warm-up load every
      // person) do not go on bidding in step, all in one burst each period.
      answeredAt = performance.now()
      at += spec.periodMs
      while (at < answeredAt) at += spec.periodMs
    }
  }
  await Promise.all(Array.from({ length: users }, (_, index) => bidder(index)))
}

async function pages(spec: PageLoad & LoadSpec, send: Send, windowEnd: number) {
  const base = { 'Accept-Encoding': 'gzip', ...spec.headers }
  let next = 0
  const loop = async (index: number) => {
    const cookie = spec.cookies?.[index % spec.cookies.length]
    const headers = cookie ? { ...base, Cookie: cookie } : base
    while (performance.now() < windowEnd) {
      await send(index, 'GET', spec.paths[next++ % spec.paths.length]!, headers)
    }
  }
  await Promise.all(Array.from({ length: spec.concurrency }, (_, index) => loop(index)))
}

process.once('message', (spec: LoadSpec) => {
  run(spec).then(
    (report) => process.send?.(report, () => process.exit(0)),
    (error: unknown) => {
      process.stderr.write(`load generator failed: ${String(error)}\n`)
      process.exit(1)
    },
  )
})
