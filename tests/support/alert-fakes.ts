import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startPushService } from './push-service-fake.ts'
import { TelegramFake, type TgUser } from './telegram-fake.ts'
import { launchData } from './telegram-launch.ts'

// The alert providers of the browser tests' server (tests/e2e/global-setup.ts): a fake Telegram
// Bot API (./telegram-fake.ts) and a fake push service (./push-service-fake.ts), started before
// the server so that its environment points at them. The test files run in other processes:
// they reach the fakes through a small JSON control service on this host
// (tests/e2e/alert-fakes.ts is its client).

export const WEBHOOK_SECRET = 'e2e-webhook-secret-0123456789'
const OTHER_BOT_SECRET = 'AAE-anotherBotOfSomeoneElse_0123456789'

export type ControlRequest =
  | { op: 'text'; from: TgUser; text: string }
  | {
      op: 'contact'
      from: TgUser
      contact: { phone_number: string; user_id?: number; first_name: string }
    }
  | { op: 'sent'; chatId: number }
  | {
      op: 'launch'
      from: TgUser
      /** Unix seconds; now when not given. */
      authDate?: number
      startParam?: string
      /** Signed by another bot, as a page of someone else's Mini App would be. */
      otherBot?: boolean
    }
  | { op: 'newEndpoint'; applicationServerKey: string }
  | { op: 'received'; endpoint: string }

export async function startAlertFakes() {
  const telegram = await new TelegramFake().start()
  const push = await startPushService()
  // The server trusts the push service's own certificate through Node's documented
  // NODE_EXTRA_CA_CERTS (https://nodejs.org/api/cli.html#node_extra_ca_certsfile).
  const dir = mkdtempSync(path.join(tmpdir(), 'alert-fakes-'))
  const caFile = path.join(dir, 'push-ca.pem')
  writeFileSync(caFile, push.certificate)

  async function answer(request: ControlRequest): Promise<unknown> {
    switch (request.op) {
      case 'text':
        return telegram.text(request.from, request.text)
      case 'contact':
        return telegram.contact(request.from, request.contact)
      case 'sent':
        return telegram.sentTo(request.chatId)
      case 'launch': {
        const token = request.otherBot
          ? `${telegram.botId + 1}:${OTHER_BOT_SECRET}`
          : telegram.token
        const { authDate, startParam } = request
        return { initData: launchData(token, request.from, { authDate, startParam }) }
      }
      case 'newEndpoint':
        return { endpoint: push.newEndpoint(request.applicationServerKey) }
      case 'received':
        return push.received
          .filter((p) => p.endpoint === request.endpoint)
          .map((p) => ({ ...p, body: p.body.toString('base64') }))
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    try {
      const result = await answer(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result))
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
    }
  }

  const control: Server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))

  return {
    telegram,
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    /** The server's environment for these providers. */
    env: {
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_BOT_USERNAME: telegram.username,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      NODE_EXTRA_CA_CERTS: caFile,
      // The push service listens on 127.0.0.1: the server sends there only when told it is an
      // internal push service (app/services/push/endpoint.server.ts).
      PUSH_INTERNAL_HOSTS: new URL(push.origin).host,
    },
    async stop() {
      await new Promise<void>((resolve) => control.close(() => resolve()))
      await telegram.stop()
      await push.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
