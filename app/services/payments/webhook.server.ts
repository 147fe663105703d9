import type { TFunction } from 'i18next'
import type { Engine } from '../../../engine/index.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { log } from '~/utils/logger.server.ts'
import { clientKey, hit, type RateLimit } from '~/services/rate-limit.server.ts'
import { apiError, tooMany } from '~/utils/api.server.ts'
import { BodyTooLarge, MAX_JSON_BYTES, readBodyText } from '~/utils/request-body.server.ts'
import { applyPaymentEvent } from './apply-event.server.ts'
import { getProvider, type PaymentProvider } from './index.server.ts'

// The HTTP side of every payment notification, whether it came from a provider or from the
// sandbox's own checkout page (docs/payments.md): nothing is trusted before the signature over
// the raw body checks out; a notification we cannot verify or read is refused (logged) with a
// 4xx, so a provider that retries sends it again. What a verified event does is
// apply-event.server.ts.

/**
 * Correctly signed notifications per source address: far above any real provider's pace. Only
 * a signed call counts here, so nobody without the secret can use up a provider's allowance.
 */
export const WEBHOOK_LIMIT: RateLimit = { limit: 600, windowSeconds: 60 }
/** Calls with a missing or wrong signature per source address, counted apart. */
export const WEBHOOK_BAD_SIGNATURE_LIMIT: RateLimit = { limit: 60, windowSeconds: 60 }

export async function handlePaymentWebhook(
  providerName: string,
  request: Request,
  engine: Engine,
  /** The caller's address as the trusted proxies give it (the load context's `clientIp`). */
  clientIp: string,
): Promise<Response> {
  const t = await getFixedT(request, ['payments', 'common'])
  const provider = getProvider(providerName)
  if (!provider) return apiError(404, t('webhook.unknownProvider'))
  const { answer, canReject } = await verifyAndApply(
    provider,
    request,
    engine,
    t,
    clientKey(clientIp),
  )
  if (!provider.answerWebhook) return answer
  // The provider's protocol decides how the answer looks (Freedom Pay: signed XML).
  const body: unknown = await answer
    .clone()
    .json()
    .catch(() => null)
  return provider.answerWebhook({ status: answer.status, body, canReject })
}

async function verifyAndApply(
  provider: PaymentProvider,
  request: Request,
  engine: Engine,
  t: TFunction,
  /** The caller's address, as the limits count it. */
  address: string,
): Promise<{ answer: Response; canReject?: boolean }> {
  let raw: string
  try {
    raw = await readBodyText(request, MAX_JSON_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLarge) return { answer: apiError(413, t('common:api.tooLarge')) }
    return { answer: apiError(400, t('webhook.malformed')) }
  }

  const parsed = provider.parseWebhook(raw, request.headers)
  if (!parsed.ok && parsed.reason === 'signature') {
    const wait = await hit(
      `payment-webhook-forged:${provider.name}`,
      address,
      WEBHOOK_BAD_SIGNATURE_LIMIT,
    )
    log.warn('payment webhook with a bad or missing signature', {
      provider: provider.name,
      address,
      limited: wait > 0,
    })
    return { answer: wait ? tooMany(t, wait) : apiError(401, t('webhook.badSignature')) }
  }
  const wait = await hit(`payment-webhook:${provider.name}`, address, WEBHOOK_LIMIT)
  if (wait) {
    log.warn('payment webhook rate-limited', { provider: provider.name, address })
    return { answer: tooMany(t, wait) }
  }
  if (!parsed.ok) {
    log.warn('malformed payment webhook', { provider: provider.name, detail: parsed.detail })
    return { answer: apiError(400, t('webhook.malformed')) }
  }
  const { event } = parsed
  return {
    answer: await applyPaymentEvent(provider.name, event, engine, t),
    canReject: event.canReject,
  }
}
