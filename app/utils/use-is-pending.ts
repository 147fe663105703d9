import { useFormAction, useNavigation } from '@remix-run/react'

/** What of a fetcher (useFetcher) useIsPending reads. */
type FetcherState = { state: 'idle' | 'submitting' | 'loading' }

/**
 * Whether a form of this page is on its way: by default this route's own form (its action, a
 * POST), else the one posting to `formAction`, or the one whose submit button carried `intent`
 * (one action, several forms), and whose fields include `formData` (one form of many alike: the
 * order's, the package's). With `fetcher`, whether that fetcher's post (or its load) is on its
 * way instead. `state: 'submitting'` leaves out the loading that follows the answer. A button
 * disabled while it is true cannot send its form twice.
 */
export function useIsPending({
  fetcher,
  formAction,
  intent,
  formData = {},
  formMethod = 'POST',
  state = 'non-idle',
}: {
  fetcher?: FetcherState
  formAction?: string
  intent?: string
  formData?: Record<string, string>
  formMethod?: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE'
  state?: 'submitting' | 'loading' | 'non-idle'
} = {}) {
  const contextual = useFormAction()
  const navigation = useNavigation()
  if (fetcher) return inState(fetcher.state, state)
  if (!inState(navigation.state, state) || navigation.formMethod !== formMethod) return false
  const sent = navigation.formData
  if (Object.entries(formData).some(([name, value]) => sent?.get(name) !== value)) return false
  if (intent !== undefined) return sent?.get('intent') === intent
  return navigation.formAction === (formAction ?? contextual)
}

function inState(current: FetcherState['state'], wanted: 'submitting' | 'loading' | 'non-idle') {
  return wanted === 'non-idle' ? current !== 'idle' : current === wanted
}
