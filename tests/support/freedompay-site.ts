import { startFreedomPayFake } from './freedompay-fake.ts'
import { appEngine, serveOnThisHost } from './site-server.ts'

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

  const { createUser } = await import('../../engine/test-support.ts')
  const { createPackagePayment } = await import('../../app/models/payment.server.ts')
  const { BID_PACKAGES } = await import('../../app/utils/bid-packages.ts')
  const { handlePaymentWebhook } = await import('../../app/services/payments/webhook.server.ts')
  const { startPackageCheckout } = await import('../../app/services/payments/checkout.server.ts')

  const { engine, prisma } = await appEngine()
  await engine.loadScripts()

  // The webhook's address ends with the provider's name, as /api/payments/webhook/{provider}.
  const { server: site, origin } = await serveOnThisHost((request) =>
    handlePaymentWebhook(request.url.split('/').pop() ?? '', request, engine, '127.0.0.1'),
  )
  const pkg = BID_PACKAGES[0]!
  const t = ((key: string) => key) as unknown as Parameters<typeof startPackageCheckout>[3]

  /** A new user buys the first package through the real checkout (the page's action). */
  async function checkout() {
    const user = await createUser(prisma, 0)
    const url = await startPackageCheckout(new Request(`${origin}/topup`), user.id, pkg, t)
    const payment = await prisma.payment.findFirstOrThrow({
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
    createUser: () => createUser(prisma, 0),
    row: (id: string) => prisma.payment.findUniqueOrThrow({ where: { id } }),
    async stop() {
      await fake.stop()
      site.closeAllConnections()
      await new Promise((resolve) => site.close(resolve))
    },
  }
}
