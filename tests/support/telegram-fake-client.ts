import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TelegramFake } from './telegram-fake.ts'

// Both ends of the fake Telegram (./telegram-fake.ts) as a bot has them, for tests of the fake
// itself: calls of its Bot API over HTTP, and a webhook that takes the updates it delivers.

export type ApiAnswer = {
  ok: boolean
  result?: unknown
  error_code?: number
  description?: string
  parameters?: { retry_after: number }
}

/** Calls `method` with JSON (or, `form`, as a form: objects then go as JSON text). */
export async function callBotApi(
  fake: TelegramFake,
  method: string,
  params: Record<string, unknown> = {},
  form = false,
) {
  const response = await fetch(`${fake.apiRoot}/bot${fake.token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form
      ? new URLSearchParams(params as Record<string, string>).toString()
      : JSON.stringify(params),
  })
  return { status: response.status, body: (await response.json()) as ApiAnswer }
}

/** The HTTP answer of a 400 with this description after "Bad Request: ". */
export const badRequestAnswer = (description: string) => ({
  status: 400,
  body: { ok: false, error_code: 400, description: `Bad Request: ${description}` },
})

/** A webhook on this host taking each update with the status it is told (200 unless told). */
export async function startWebhook() {
  const received: { secret: unknown; update: Record<string, unknown> }[] = []
  const statuses: number[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const update = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
      received.push({ secret: req.headers['x-telegram-bot-api-secret-token'], update })
      res.writeHead(statuses.shift() ?? 200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    statuses,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
