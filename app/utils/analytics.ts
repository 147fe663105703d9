import { useCallback } from 'react'
import { useOptionalRootData } from '~/utils/hooks.ts'
import { toMajor } from '~/utils/money.ts'

// The analytics events of docs/rules.md#analytics, sent only when the stored cookie preferences allow
// analytics. They go to `window.dataLayer`, which the tag manager (GTM_ID, loaded by the root
// under the same condition) forwards to the trackers; see docs/decisions/011-analytics.md.

export type AnalyticsEvent =
  | { event: 'sign_up' }
  | { event: 'bid_placed'; auction_id: string; value: number; currency: 'KGS' }
  | { event: 'view_auction'; auction_id: string; auction_name: string }
  | { event: 'add_payment_info'; value: number; currency: 'KGS' }

declare global {
  interface Window {
    dataLayer?: unknown[]
  }
}

export function track(allowed: boolean, payload: AnalyticsEvent) {
  if (!allowed || typeof window === 'undefined') return
  window.dataLayer ??= []
  window.dataLayer.push(payload)
}

/** `track` bound to the visitor's current choice. */
export function useTrack() {
  const allowed = useOptionalRootData()?.consent?.preferences.analytics === true
  return useCallback((payload: AnalyticsEvent) => track(allowed, payload), [allowed])
}

/** Money in minor units -> the events' value in som. */
export const eventValue = (minor: number) => toMajor(minor)
