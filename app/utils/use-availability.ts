import { useEffect, useState } from 'react'

export type AvailabilityState =
  { state: 'idle' } | { state: 'checking' } | { state: 'valid' | 'invalid'; message: string }

/**
 * Live availability of a username, email or phone: only from `minLength`
 * characters, 500 ms after typing stops, "check failed" when the server cannot answer.
 */
export function useAvailability(
  field: 'username' | 'email' | 'phone',
  value: string,
  { minLength = 3, failedMessage }: { minLength?: number; failedMessage: string },
): AvailabilityState {
  const [result, setResult] = useState<AvailabilityState>({ state: 'idle' })
  useEffect(() => {
    if (value.trim().length < minLength) {
      setResult({ state: 'idle' })
      return
    }
    const controller = new AbortController()
    const timer = setTimeout(() => {
      setResult({ state: 'checking' })
      fetch(`/api/auth/validate-${field}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ [field]: value }),
        signal: controller.signal,
      })
        .then(async (response) => {
          if (!response.ok) throw new Error(String(response.status))
          const body = (await response.json()) as { valid: boolean; message: string }
          setResult({ state: body.valid ? 'valid' : 'invalid', message: body.message })
        })
        .catch(() => {
          if (!controller.signal.aborted) setResult({ state: 'invalid', message: failedMessage })
        })
    }, 500)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [field, value, minLength, failedMessage])
  return result
}
