import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startFreedomPayFake } from './freedompay-fake.ts'

// Our site as far as Freedom Pay is concerned, for unit tests: the real webhook handler behind
// node:http, the engine, and the local fake of Freedom Pay (freedompay-fake.ts) configured as the
// payment provider. The fake retries callbacks every `retryEveryMs` (its half hour, shortened).

export async function startFreedomPaySite(retryEveryMs = 20) {
  const fake = await startFreedomPayFake('548856', 'unit-freedompay-secret', retryEveryMs)
  process.env.PAYMENT_PROVIDER = 'freedompay'
  process.env.FREEDOMPAY_MERCHANT_ID = fake.merchantId
  process.env.FREEDOMPAY_SECRET_KEY = fake.secretKey
  process.env.FREEDOMPAY_API_URL = fake.url
  process.env.FREEDOMPAY_TEST_MODE = '1'

  const { Engine } = await import('../../engine/index.ts')
  const { createUser } = await import('../../engine/test-support.ts')
  const { getPrisma } = await import('../../app/utils/db.server.ts')
  const { getEnv } = await import('../../app/utils/env.server.ts')
  const { getRedis } = await import('../../app/utils/redis.server.ts')
  const { createPackagePayment } = await import('../../app/models/payment.server.ts')
  const { BID_PACKAGES } = await import('../../app/utils/bid-packages.ts')
  const { handlePaymentWebhook } = await import('../../app/services/payments/webhook.server.ts')
  const { startPackageCheckout } = await import('../../app/services/payments/checkout.server.ts')

  const engine = new Engine({
    redis: getRedis(),
    prisma: getPrisma(),
    prefix: getEnv().REDIS_PREFIX,
  })
  await engine.loadScripts()

  const site: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      })
      const provider = (req.url ?? '').split('/').pop() ?? ''
      void handlePaymentWebhook(provider, request, engine, '127.0.0.1').then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers))
        res.end(await response.text())
      })
    })
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  const pkg = BID_PACKAGES[0]!
  const t = ((key: string) => key) as unknown as Parameters<typeof startPackageCheckout>[3]

  /** A new user buys the first package through the real checkout (the page's action). */
  async function checkout() {
    const user = await createUser(getPrisma(), 0)
    const url = await startPackageCheckout(new Request(`${origin}/topup`), user.id, pkg, t)
    const payment = await getPrisma().payment.findFirstOrThrow({
      where: { userId: user.id },
      orderBy: { createdAt: 'desc' },
    })
    return { user, payment, url, atFake: fake.byOrder(payment.id)! }
  }

  return {
    fake,
    engine,
    origin,
    pkg,
    checkout,
    createPackagePayment,
    createUser: () => createUser(getPrisma(), 0),
    row: (id: string) => getPrisma().payment.findUniqueOrThrow({ where: { id } }),
    async stop() {
      await fake.stop()
      site.closeAllConnections()
      await new Promise((resolve) => site.close(resolve))
    },
  }
}
