import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { startFreedomPayFake } from '../../../tests/support/freedompay-fake.ts'

// Freedom Pay against the local fake (tests/support/freedompay-fake.ts), never the internet:
// checkout, the signed callback through the real webhook handler, status, refund,
// reconciliation, and what a misbehaving provider gets.

const fake = await startFreedomPayFake('548856', 'unit-freedompay-secret')
process.env.PAYMENT_PROVIDER = 'freedompay'
process.env.FREEDOMPAY_MERCHANT_ID = fake.merchantId
process.env.FREEDOMPAY_SECRET_KEY = fake.secretKey
process.env.FREEDOMPAY_API_URL = fake.url
process.env.FREEDOMPAY_TEST_MODE = '1'

const { Engine } = await import('../../../engine/index.ts')
const { createUser } = await import('../../../engine/test-support.ts')
const { getPrisma } = await import('~/utils/db.server.ts')
const { getEnv } = await import('~/utils/env.server.ts')
const { getRedis } = await import('~/services/redis.server.ts')
const { createPackagePayment } = await import('~/models/payment.server.ts')
const { BID_PACKAGES } = await import('~/utils/bid-packages.ts')
const { handlePaymentWebhook } = await import('./webhook.server.ts')
const { reconcilePayments } = await import('./reconcile.server.ts')
const { activeProvider } = await import('./index.server.ts')
const fp = await import('./freedompay.server.ts')

const engine = new Engine({ redis: getRedis(), prisma: getPrisma(), prefix: getEnv().REDIS_PREFIX })
await engine.loadScripts()

// Our site, as far as the callback is concerned: the real webhook handler behind node:http.
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

afterAll(async () => {
  await fake.stop()
  site.closeAllConnections()
  await new Promise((resolve) => site.close(resolve))
})

beforeEach(() => fake.behave({}))

const pkg = BID_PACKAGES[0]

async function checkout() {
  const user = await createUser(getPrisma(), 0)
  const payment = await createPackagePayment(user.id, 'freedompay', pkg)
  const { url } = await activeProvider().createCheckout({
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    description: `${pkg.bids} bids`,
    origin,
  })
  const atFake = fake.byOrder(payment.id)!
  return { user, payment, url, atFake }
}

const row = (id: string) => getPrisma().payment.findUniqueOrThrow({ where: { id } })

describe('pg_sig', () => {
  test('md5 of the script name, the values sorted by field name and the secret, joined by ;', () => {
    const fields = {
      pg_order_id: '23',
      pg_merchant_id: '548856',
      pg_amount: '25',
      pg_description: 'test',
      pg_salt: 'molbulak',
    }
    const line = 'init_payment.php;25;test;548856;23;molbulak;secret'
    expect(fp.pgSignature('init_payment.php', fields, 'secret')).toBe(
      createHash('md5').update(line).digest('hex'),
    )
    const signed = fp.signFields('freedompay', fields, 'secret')
    expect(fp.pgSignatureValid('freedompay', signed, 'secret')).toBe(true)
    expect(fp.pgSignatureValid('freedompay', signed, 'other')).toBe(false)
    expect(fp.pgSignatureValid('freedompay', { ...signed, pg_amount: '26' }, 'secret')).toBe(false)
    expect(fp.pgSignatureValid('freedompay', { ...signed, pg_sig: 'zz' }, 'secret')).toBe(false)
  })

  test('XML answers: direct children only, entities decoded, nested lists skipped', () => {
    expect(
      fp.parseXmlResponse(
        '<?xml version="1.0"?><response><pg_status>ok</pg_status><pg_refund_payments>' +
          '<pg_refund_payment><pg_payment_id>9</pg_payment_id></pg_refund_payment>' +
          '</pg_refund_payments><pg_payment_id>1</pg_payment_id><pg_x>a &amp; b</pg_x></response>',
      ),
    ).toEqual({ pg_status: 'ok', pg_payment_id: '1', pg_x: 'a & b' })
    expect(fp.parseXmlResponse('<html>no</html>')).toBeNull()
  })
})

describe('Freedom Pay against the fake', () => {
  test('checkout: a signed init_payment.php in som and KGS, then the payment page', async () => {
    const { payment, url, atFake } = await checkout()
    expect(url).toBe(`${fake.url}/pay.html?customer=${atFake.customer}`)
    const request = fake.requests.findLast((r) => r.script === 'init_payment.php')!
    expect(request.signed).toBe(true)
    expect(request.fields).toMatchObject({
      pg_merchant_id: '548856',
      pg_order_id: payment.id,
      pg_amount: '750.00',
      pg_currency: 'KGS',
      pg_result_url: `${origin}/api/payments/webhook/freedompay`,
      pg_success_url: `${origin}/topup?payment=${payment.id}`,
      pg_testing_mode: '1',
    })
  })

  test('paid, the callback repeated three times: bids credited once, every answer ok and signed', async () => {
    const { user, payment, atFake } = await checkout()
    fake.behave({ repeat: 3 })
    await fake.decide(atFake, true)
    const answers = fake.callbacks.filter((c) => c.orderId === payment.id)
    expect(answers).toHaveLength(3)
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200, pgStatus: 'ok', answerSigned: true })
    }
    expect(await engine.getBalance(user.id)).toBe(pkg.bids)
    expect(await row(payment.id)).toMatchObject({ status: 'paid', providerTxnId: atFake.id })
  })

  test('declined: failed with the reason', async () => {
    const { user, payment, atFake } = await checkout()
    await fake.decide(atFake, false)
    expect(fake.callbacks.at(-1)).toMatchObject({ status: 200, pgStatus: 'ok' })
    expect(await row(payment.id)).toMatchObject({
      status: 'failed',
      failureReason: 'Card declined',
    })
    expect(await engine.getBalance(user.id)).toBe(0)
  })

  test('a wrong signature is refused and changes nothing', async () => {
    const { user, payment, atFake } = await checkout()
    fake.behave({ wrongSignature: true })
    await fake.decide(atFake, true)
    expect(fake.callbacks.at(-1)).toMatchObject({ status: 200, pgStatus: 'error' })
    expect(await row(payment.id)).toMatchObject({ status: 'pending' })
    expect(await engine.getBalance(user.id)).toBe(0)
  })

  test('money of another amount or currency is held for an admin with the reason; nothing credited', async () => {
    for (const behaviour of [{ amount: '1.00' }, { currency: 'KZT' }]) {
      const { user, payment, atFake } = await checkout()
      fake.behave(behaviour)
      await fake.decide(atFake, true)
      // Received and kept: the provider is told the callback was taken, an admin refunds it.
      expect(fake.callbacks.at(-1)).toMatchObject({ pgStatus: 'ok', answerSigned: true })
      expect(await row(payment.id)).toMatchObject({
        status: 'held',
        failureReason: 'amount_mismatch',
      })
      expect(await engine.getBalance(user.id)).toBe(0)
    }
  })

  test('a callback for a payment we do not know is rejected', async () => {
    const { atFake } = await checkout()
    fake.behave({ orderId: 'no-such-payment' })
    await fake.decide(atFake, true)
    expect(fake.callbacks.at(-1)).toMatchObject({
      orderId: 'no-such-payment',
      pgStatus: 'rejected',
    })
  })

  test('status and refund through get_status3.php and revoke.php', async () => {
    const { payment, atFake } = await checkout()
    const provider = activeProvider()
    expect(await provider.getStatus({ id: payment.id, transactionId: null })).toEqual({
      known: true,
      status: 'pending',
    })
    await fake.decide(atFake, true)
    expect(await provider.getStatus({ id: payment.id, transactionId: atFake.id })).toMatchObject({
      known: true,
      status: 'settled',
      event: { status: 'paid', amount: pkg.price, currency: 'KGS', transactionId: atFake.id },
    })
    expect(await provider.getStatus({ id: 'never-seen', transactionId: null })).toEqual({
      known: false,
    })
    const refund = { paymentId: payment.id, amount: pkg.price, currency: 'KGS', reason: 'test' }
    expect(await provider.refund({ ...refund, transactionId: atFake.id })).toEqual({
      ok: true,
      refundId: atFake.id,
    })
    expect(atFake.status).toBe('refunded')
    expect(await provider.refund({ ...refund, transactionId: atFake.id })).toMatchObject({
      ok: false,
    })
    expect(fake.requests.every((r) => r.signed)).toBe(true)
  })

  test('a provider that never answers, or answers something else than XML: a clear error', async () => {
    const slow = fp.freedomPayProvider({
      merchantId: fake.merchantId,
      secretKey: fake.secretKey,
      apiUrl: fake.url,
      testMode: true,
      timeoutMs: 200,
    })
    fake.behave({ hang: true })
    await expect(slow.getStatus({ id: 'x', transactionId: null })).rejects.toThrow(
      /Freedom Pay get_status3\.php: no answer within 200 ms/,
    )
    fake.behave({})
    const lost = fp.freedomPayProvider({
      merchantId: fake.merchantId,
      secretKey: fake.secretKey,
      apiUrl: `${fake.url}/nowhere`,
      testMode: true,
    })
    await expect(
      lost.createCheckout({
        paymentId: 'x',
        amount: 100,
        currency: 'KGS',
        description: 'd',
        origin,
      }),
    ).rejects.toThrow(/init_payment\.php: HTTP 404, the answer is not XML/)
  })

  test('reconciliation: a paid payment whose callback was lost is credited once', async () => {
    const { user, payment, atFake } = await checkout()
    fake.behave({ dropCallback: true })
    await fake.decide(atFake, true)
    expect(await row(payment.id)).toMatchObject({ status: 'pending' })
    // Not yet: it is younger than ten minutes.
    expect((await reconcilePayments(engine)).checked).toBe(0)
    const later = new Date(Date.now() + 11 * 60_000)
    const first = await reconcilePayments(engine, later)
    expect(first.settled).toBeGreaterThanOrEqual(1)
    expect(await row(payment.id)).toMatchObject({ status: 'paid', providerTxnId: atFake.id })
    expect(await engine.getBalance(user.id)).toBe(pkg.bids)
    await reconcilePayments(engine, later)
    expect(await engine.getBalance(user.id)).toBe(pkg.bids)
  })

  test('reconciliation: a payment the provider never heard of expires after 24 hours', async () => {
    const user = await createUser(getPrisma(), 0)
    const payment = await createPackagePayment(user.id, 'freedompay', pkg)
    await reconcilePayments(engine, new Date(Date.now() + 60 * 60_000))
    expect(await row(payment.id)).toMatchObject({ status: 'pending' })
    await reconcilePayments(engine, new Date(Date.now() + 25 * 60 * 60_000))
    expect(await row(payment.id)).toMatchObject({ status: 'cancelled', failureReason: 'expired' })
  })
})
