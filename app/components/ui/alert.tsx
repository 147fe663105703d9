import type { ReactNode } from 'react'

const tones = {
  /** A refusal or a failure: read out at once. */
  error: 'border-red-200 bg-red-50 text-red-800',
} as const

/**
 * The boxed message above a form or in a dialog (a refusal's reason, a form-wide error), read
 * out by screen readers as it appears.
 */
export function Alert({
  tone = 'error',
  className = '',
  children,
}: {
  tone?: keyof typeof tones
  className?: string
  children: ReactNode
}) {
  return (
    <p role="alert" className={`rounded-md border p-3 text-sm ${tones[tone]} ${className}`.trim()}>
      {children}
    </p>
  )
}
