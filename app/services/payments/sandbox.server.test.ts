import { describe, expect, test } from 'vitest'
import { sandboxProvider, sandboxWebhook, SANDBOX_SIGNATURE_HEADER } from './sandbox.server.ts'
import { sign } from './signature.server.ts'

const secret = 'sandbox-secret-for-unit-tests'
const provider = sandboxProvider(secret)
const payment = { id: 'pay_1', amount: 750_00, currency: 'KGS' }

describe('sandbox provider', () => {
  test('its own webhook parses back into the event, amount in tyiyn', () => {
    const { body, headers } = sandboxWebhook(payment, 'paid', secret)
    const parsed = provider.parseWebhook(body, new Headers(headers))
    expect(parsed).toMatchObject({
      ok: true,
      event: { paymentId: 'pay_1', status: 'paid', amount: 750_00, currency: 'KGS' },
    })
    expect(parsed.ok && parsed.event.transactionId).toMatch(/^sbx_[0-9a-f]{24}$/)
    expect(JSON.parse(body)).toMatchObject({ amount: '750.00', event: 'payment.updated' })
  })

  test('a decline is a failed event with its reason', () => {
    const { body, headers } = sandboxWebhook(payment, 'failed', secret)
    expect(provider.parseWebhook(body, new Headers(headers))).toMatchObject({
      ok: true,
      event: { status: 'failed', reason: 'declined' },
    })
  })

  test('a body signed with another secret, or changed after signing, is refused', () => {
    const forged = sandboxWebhook(payment, 'paid', 'someone-elses-secret')
    expect(provider.parseWebhook(forged.body, new Headers(forged.headers))).toEqual({
      ok: false,
      reason: 'signature',
    })
    const { body, headers } = sandboxWebhook(payment, 'paid', secret)
    const changed = body.replace('750.00', '1.00')
    expect(provider.parseWebhook(changed, new Headers(headers))).toMatchObject({
      reason: 'signature',
    })
    expect(provider.parseWebhook(body, new Headers())).toMatchObject({ reason: 'signature' })
  })

  test('a signed body that is not a sandbox event is malformed', () => {
    for (const body of ['not json', '[]', '{"event":"payment.updated"}', '{"amount":7.5}']) {
      const headers = new Headers({ [SANDBOX_SIGNATURE_HEADER]: sign(secret, body) })
      expect(provider.parseWebhook(body, headers), body).toMatchObject({
        ok: false,
        reason: 'malformed',
      })
    }
  })

  test('checkout is our own sandbox page for the payment', async () => {
    const { url } = await provider.createCheckout({
      paymentId: 'pay_1',
      amount: 750_00,
      currency: 'KGS',
      description: '50',
      origin: 'http://localhost',
    })
    expect(url).toBe('/payments/sandbox/pay_1')
  })
})
