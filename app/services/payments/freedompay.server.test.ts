import { createHash } from 'node:crypto'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { startFreedomPaySite } from '../../../tests/support/freedompay-site.ts'

// Freedom Pay against the local fake (tests/support/freedompay-fake.ts), never the internet:
// the signature rule, checkout keeping Freedom Pay's payment id, the signed callback through the
// real webhook handler (retried when we answer anything but 200), refusing money we cannot use,
// status and refund, and answers that are not signed by Freedom Pay.

const site = await startFreedomPaySite()
const { fake, engine, pkg, checkout, row } = site
const fp = await import('./freedompay.server.ts')
const protocol = await import('./freedompay-protocol.server.ts')
const { activeProvider } = await import('./index.server.ts')

afterAll(() => site.stop())
beforeEach(() => fake.behave({}))

const md5 = (line: string) => createHash('md5').update(line).digest('hex')

describe('pg_sig', () => {
  test('the documentation’s example: script, values sorted by field name, secret, joined by ;', () => {
    const fields = {
      pg_order_id: '23',
      pg_merchant_id: '548856',
      pg_amount: '25',
      pg_description: 'test',
      pg_salt: 'molbulak',
    }
    const message = protocol.fieldsMessage(fields)
    expect(protocol.pgSignature('init_payment.php', message, 'secret')).toBe(
      md5('init_payment.php;25;test;548856;23;molbulak;secret'),
    )
    const signed = protocol.fieldsMessage(protocol.signFields('freedompay', fields, 'secret'))
    expect(protocol.pgSignatureValid('freedompay', signed, 'secret')).toBe(true)
    expect(protocol.pgSignatureValid('freedompay', signed, 'other')).toBe(false)
  })

  test('nested fields are signed where they stand, repeated ones in the order they came', () => {
    const message = protocol.parseXmlMessage(
      '<?xml version="1.0"?><response><pg_status>ok</pg_status><pg_payment_id>1</pg_payment_id>' +
        '<pg_refund_payments><pg_refund_payment><pg_payment_id>9</pg_payment_id>' +
        '<pg_amount>-10</pg_amount></pg_refund_payment><pg_refund_payment>' +
        '<pg_payment_id>8</pg_payment_id><pg_amount>-5</pg_amount></pg_refund_payment>' +
        '</pg_refund_payments><pg_salt>s</pg_salt><pg_x>a &amp; b</pg_x></response>',
    )!
    expect(protocol.topFields(message)).toEqual({
      pg_status: 'ok',
      pg_payment_id: '1',
      pg_salt: 's',
      pg_x: 'a & b',
    })
    expect(protocol.signatureLine('get_status3.php', message, 'k')).toBe(
      'get_status3.php;1;-10;9;-5;8;s;ok;a & b;k',
    )
    // A form body's `a[b]` fields nest the way PHP reads them; a name given twice stays twice.
    const form = protocol.parseFormMessage('b=2&a[y]=3&a[x]=4&c=5&c=6&d[]=7&d[]=8')
    expect(protocol.signatureLine('freedompay', form, 'k')).toBe('freedompay;4;3;2;5;6;7;8;k')
    expect(protocol.parseXmlMessage('<html>no</html><x/>')).toBeNull()
  })
})

describe('Freedom Pay against the fake', () => {
  test('checkout: a signed init_payment.php in som and KGS; Freedom Pay’s payment id is kept', async () => {
    const { payment, url, atFake } = await checkout()
    expect(url).toBe(`${fake.url}/pay.html?customer=${atFake.customer}`)
    expect(payment.providerPaymentId).toBe(atFake.id)
    const request = fake.requests.findLast((r) => r.script === 'init_payment.php')!
    expect(request.signed).toBe(true)
    expect(request.fields).toMatchObject({
      pg_merchant_id: '548856',
      pg_order_id: payment.id,
      pg_amount: '750.00',
      pg_currency: 'KGS',
      pg_result_url: `${site.origin}/api/payments/webhook/freedompay`,
      pg_success_url: `${site.origin}/topup?payment=${payment.id}`,
      pg_testing_mode: '1',
    })
  })

  test('paid, the callback repeated three times, with nested and repeated fields: credited once', async () => {
    const { user, payment, atFake } = await checkout()
    fake.behave({
      repeat: 3,
      extra: [
        [
          'pg_user_params',
          [
            ['a', '1'],
            ['b', [['c', '2']]],
          ],
        ],
        ['pg_note', 'first'],
        ['pg_note', 'second'],
      ],
    })
    await fake.decide(atFake, true)
    const answers = fake.callbacks.filter((c) => c.orderId === payment.id)
    expect(answers).toHaveLength(3)
    expect(answers[0]!.sent).toContain('pg_user_params%5Bb%5D%5Bc%5D=2')
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

  test('a callback we cannot verify is answered non-200, so Freedom Pay sends it again', async () => {
    const { user, payment, atFake } = await checkout()
    fake.behave({ wrongSignature: true })
    await fake.decide(atFake, true)
    await fake.retriesDone()
    const calls = fake.callbacks.filter((c) => c.orderId === payment.id)
    // The first call and four retries (every half hour for two hours, shortened here).
    expect(calls.map((c) => c.attempt)).toEqual([0, 1, 2, 3, 4])
    for (const call of calls) expect(call).toMatchObject({ status: 401, pgStatus: 'error' })
    expect(await row(payment.id)).toMatchObject({ status: 'pending' })
    expect(await engine.getBalance(user.id)).toBe(0)
  })

  test('money of another amount or currency is refused where pg_can_reject allows it', async () => {
    for (const behaviour of [{ amount: '1.00' }, { currency: 'KZT' }]) {
      const { user, payment, atFake } = await checkout()
      fake.behave(behaviour)
      await fake.decide(atFake, true)
      expect(fake.callbacks.at(-1)).toMatchObject({
        status: 200,
        pgStatus: 'rejected',
        answerSigned: true,
      })
      expect(atFake.revocations).toHaveLength(1)
      expect(await row(payment.id)).toMatchObject({
        status: 'failed',
        failureReason: 'amount_mismatch',
      })
      expect(await engine.getBalance(user.id)).toBe(0)
    }
  })

  test('money we cannot use and may not refuse (pg_can_reject=0) is held for an admin', async () => {
    const { user, payment, atFake } = await checkout()
    fake.behave({ amount: '1.00', canReject: '0' })
    await fake.decide(atFake, true)
    expect(fake.callbacks.at(-1)).toMatchObject({ pgStatus: 'ok', answerSigned: true })
    expect(atFake.revocations).toEqual([])
    expect(await row(payment.id)).toMatchObject({
      status: 'held',
      failureReason: 'amount_mismatch',
    })
    expect(await engine.getBalance(user.id)).toBe(0)
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

  test('status by pg_payment_id only; refund', async () => {
    const { payment, atFake } = await checkout()
    const provider = activeProvider()
    const query = { id: payment.id, providerPaymentId: atFake.id, transactionId: null }
    expect(await provider.getStatus(query)).toEqual({ known: true, status: 'pending' })
    const asked = fake.requests.findLast((r) => r.script === 'get_status3.php')!
    expect(asked).toMatchObject({ signed: true, fields: { pg_payment_id: atFake.id } })
    fake.behave({ dropCallback: true })
    await fake.decide(atFake, true)
    expect(await provider.getStatus(query)).toMatchObject({
      known: true,
      status: 'settled',
      event: { status: 'paid', amount: pkg.price, currency: 'KGS', transactionId: atFake.id },
    })
    // Without Freedom Pay's id nobody could have paid it; with one, any error (its "payment not
    // found" too) is asked again later.
    expect(
      await provider.getStatus({ id: 'x', providerPaymentId: null, transactionId: null }),
    ).toEqual({ known: false })
    await expect(
      provider.getStatus({ id: 'x', providerPaymentId: '1', transactionId: null }),
    ).rejects.toThrow(/get_status3\.php: 340 Payment not found/)
    const refund = { paymentId: payment.id, amount: pkg.price, currency: 'KGS', reason: 'test' }
    expect(await provider.refund({ ...refund, transactionId: atFake.id })).toEqual({
      ok: true,
      refundId: atFake.id,
    })
    expect(atFake.refunds).toMatchObject([{ amount: '750.00' }])
    expect(await provider.refund({ ...refund, transactionId: atFake.id })).toMatchObject({
      ok: false,
    })
    expect(fake.requests.every((r) => r.signed)).toBe(true)
  })

  test('answers that are unsigned or signed with another key are refused', async () => {
    const { payment, atFake } = await checkout()
    const provider = activeProvider()
    const query = { id: payment.id, providerPaymentId: atFake.id, transactionId: null }
    for (const answers of ['unsigned', 'wrongKey'] as const) {
      fake.behave({ answers })
      await expect(provider.getStatus(query)).rejects.toThrow(fp.FreedomPayError)
      await expect(
        provider.createCheckout({
          paymentId: 'x',
          amount: 100,
          currency: 'KGS',
          description: 'd',
          origin: site.origin,
        }),
      ).rejects.toThrow(/unsigned|signature is wrong/)
    }
  })

  test('a provider that never answers, or answers something else than XML: a clear error', async () => {
    const config = {
      merchantId: fake.merchantId,
      secretKey: fake.secretKey,
      apiUrl: fake.url,
      testMode: true,
    }
    const slow = fp.freedomPayProvider({ ...config, timeoutMs: 200 })
    fake.behave({ hang: true })
    await expect(
      slow.getStatus({ id: 'x', providerPaymentId: '1', transactionId: null }),
    ).rejects.toThrow(/Freedom Pay get_status3\.php: no answer within 200 ms/)
    fake.behave({})
    const lost = fp.freedomPayProvider({ ...config, apiUrl: `${fake.url}/nowhere` })
    await expect(
      lost.createCheckout({
        paymentId: 'x',
        amount: 100,
        currency: 'KGS',
        description: 'd',
        origin: site.origin,
      }),
    ).rejects.toThrow(/init_payment\.php: HTTP 404, the answer is not XML/)
  })
})
