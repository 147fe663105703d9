import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { getEnv } from '~/utils/env.server.ts'
import { parseMoney } from '~/utils/money.ts'
import type { PaymentOutcome, PaymentProvider, WebhookParse } from './provider.server.ts'
import { sign, verifySignature } from './signature.server.ts'

// The sandbox: our own checkout page (/payments/sandbox/{id}) that plays the part of a bank's
// hosted page, and a webhook shaped and signed like a real provider's (docs/payments.md).

export const SANDBOX_SIGNATURE_HEADER = 'X-Sandbox-Signature'

const bodySchema = z.object({
  event: z.literal('payment.updated'),
  payment_id: z.string().min(1).max(64),
  transaction_id: z.string().min(1).max(100),
  status: z.enum(['paid', 'failed', 'cancelled']),
  /** Som with two decimals, as a string ("750.00"). */
  amount: z.string().regex(/^\d{1,12}\.\d{2}$/),
  currency: z.string().regex(/^[A-Z]{3}$/),
  reason: z.string().max(200).optional(),
  sent_at: z.string().max(40).optional(),
})
export type SandboxWebhookBody = z.infer<typeof bodySchema>

export function sandboxProvider(secret = getEnv().PAYMENT_SANDBOX_SECRET): PaymentProvider {
  return {
    name: 'sandbox',
    async createCheckout({ paymentId }) {
      return { url: `/payments/sandbox/${encodeURIComponent(paymentId)}` }
    },
    // The sandbox "bank" keeps no record of its own: what it decided reached us through its
    // webhook, in the same process, so there is nothing more to ask it.
    async getStatus() {
      return { known: false }
    },
    async refund() {
      return { ok: true, refundId: `sbx_refund_${randomBytes(12).toString('hex')}` }
    },
    parseWebhook(rawBody, headers): WebhookParse {
      if (!verifySignature(secret, rawBody, headers.get(SANDBOX_SIGNATURE_HEADER))) {
        return { ok: false, reason: 'signature' }
      }
      let json: unknown
      try {
        json = JSON.parse(rawBody)
      } catch {
        return { ok: false, reason: 'malformed', detail: 'not JSON' }
      }
      const parsed = bodySchema.safeParse(json)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        return { ok: false, reason: 'malformed', detail: issue?.path.join('.') || 'body' }
      }
      const body = parsed.data
      const amount = parseMoney(body.amount)
      if (amount === null) return { ok: false, reason: 'malformed', detail: 'amount' }
      return {
        ok: true,
        event: {
          paymentId: body.payment_id,
          transactionId: body.transaction_id,
          status: body.status,
          amount,
          currency: body.currency,
          reason: body.reason,
        },
      }
    },
  }
}

/** The webhook the sandbox "bank" sends when the payer presses Pay or Decline. */
export function sandboxWebhook(
  payment: { id: string; amount: number; currency: string },
  outcome: PaymentOutcome,
  secret = getEnv().PAYMENT_SANDBOX_SECRET,
): { body: string; headers: Record<string, string> } {
  const message: SandboxWebhookBody = {
    event: 'payment.updated',
    payment_id: payment.id,
    transaction_id: `sbx_${randomBytes(12).toString('hex')}`,
    status: outcome,
    amount: (payment.amount / 100).toFixed(2),
    currency: payment.currency,
    ...(outcome === 'paid' ? {} : { reason: outcome === 'failed' ? 'declined' : 'cancelled' }),
    sent_at: new Date().toISOString(),
  }
  const body = JSON.stringify(message)
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      [SANDBOX_SIGNATURE_HEADER]: `sha256=${sign(secret, body)}`,
    },
  }
}
