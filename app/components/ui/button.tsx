import { Loader2 } from 'lucide-react'
import type { ButtonHTMLAttributes } from 'react'

// The site's buttons and button-like links, their looks in one place: `buttonClass` for a Link
// (or anything else that should look like a button), <Button> for a button.

const base =
  'inline-flex items-center justify-center rounded-md font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 disabled:opacity-70'

const variants = {
  /** The page's main action. */
  primary: 'bg-amber-700 text-white hover:bg-amber-800 focus-visible:ring-offset-2',
  /** A destructive action, confirmed (delete, end, refund). */
  danger: 'bg-red-700 text-white hover:bg-red-800',
  /** A secondary action: cancel, clear, an action in a table row. */
  outline: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50',
  /** A secondary action on a tinted ground (back, how it works): a border and no fill. */
  clear: 'border border-slate-300 hover:bg-slate-50',
  /** A row's action that opens something of its own (statistics, bots). */
  accent: 'border border-amber-600 bg-white text-amber-900 hover:bg-amber-50',
  /** A row's action that leads to a destructive one (its confirmation). */
  dangerOutline: 'border border-red-300 bg-white text-red-800 hover:bg-red-50',
} as const

const sizes = {
  /** A static page's call to action (how it works, top-up, log out). */
  lg: 'gap-2 px-5 py-2.5',
  md: 'gap-2 px-4 py-2',
  /** A secondary action beside a card's text (edit, unlink, go to the auction). */
  compact: 'gap-1 px-3 py-1.5 text-sm',
  sm: 'gap-1 px-2 py-1 text-sm',
  xs: 'gap-1 px-2 py-1 text-xs',
} as const

export type ButtonVariant = keyof typeof variants
export type ButtonSize = keyof typeof sizes

/** The classes of a button of `variant` and `size`, then `className`. */
export function buttonClass({
  variant = 'primary',
  size = 'md',
  className = '',
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return `${base} ${variants[variant]} ${sizes[size]} ${className}`.trim()
}

/**
 * A button; `pending` (its form on its way, see useIsPending) disables it so that one press is
 * one submission.
 */
export function Button({
  variant,
  size,
  pending = false,
  className,
  disabled,
  type = 'submit',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant
  size?: ButtonSize
  pending?: boolean
}) {
  return (
    <button
      type={type}
      disabled={disabled || pending}
      className={buttonClass({ variant, size, className })}
      {...props}
    />
  )
}

/** A form's main button: while `pending` it is disabled and shows a spinner beside its text. */
export function SaveButton({
  pending,
  children,
  ...props
}: Omit<Parameters<typeof Button>[0], 'pending'> & { pending: boolean }) {
  return (
    <Button pending={pending} {...props}>
      {pending ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
      {children}
    </Button>
  )
}
