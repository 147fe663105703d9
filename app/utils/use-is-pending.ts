import { useFormAction, useNavigation } from '@remix-run/react'

/**
 * Whether a form of this page is on its way: by default this route's own form (its action, a
 * POST), else the one posting to `formAction`, or the one whose submit button carried `intent`
 * (one action, several forms), and whose fields include `formData` (one form of many alike: the
 * order's, the package's). `state: 'submitting'` leaves out the loading that follows the
 * answer. A button disabled while it is true cannot send its form twice.
 */
export function useIsPending({
  formAction,
  intent,
  formData = {},
  formMethod = 'POST',
  state = 'non-idle',
}: {
  formAction?: string
  intent?: string
  formData?: Record<string, string>
  formMethod?: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE'
  state?: 'submitting' | 'loading' | 'non-idle'
} = {}) {
  const contextual = useFormAction()
  const navigation = useNavigation()
  const inState = state === 'non-idle' ? navigation.state !== 'idle' : navigation.state === state
  if (!inState || navigation.formMethod !== formMethod) return false
  const sent = navigation.formData
  if (Object.entries(formData).some(([name, value]) => sent?.get(name) !== value)) return false
  if (intent !== undefined) return sent?.get('intent') === intent
  return navigation.formAction === (formAction ?? contextual)
}
