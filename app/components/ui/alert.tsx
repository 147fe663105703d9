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
  size = 'sm',
  className = '',
  children,
}: {
  tone?: keyof typeof tones
  /** `base`: the page's own text size, for an alert that is the page's main message. */
  size?: 'sm' | 'base'
  className?: string
  children: ReactNode
}) {
  const text = size === 'sm' ? ' text-sm' : ''
  return (
    <p role="alert" className={`rounded-md border p-3${text} ${tones[tone]} ${className}`.trim()}>
      {children}
    </p>
  )
}
