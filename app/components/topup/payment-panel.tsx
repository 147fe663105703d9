import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'

/**
 * A payment step's page as one card under its heading (`id` is the heading's): the order's
 * payment page and the sandbox provider's checkout. `width` is the card's max-width class.
 */
export function PaymentPanel({
  id,
  icon: Icon,
  title,
  width,
  children,
}: {
  id: string
  icon: LucideIcon
  title: string
  width: 'max-w-md' | 'max-w-lg'
  children: ReactNode
}) {
  return (
    <section
      aria-labelledby={id}
      className={`mx-auto ${width} rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8`}
    >
      <h1 id={id} className="flex items-center gap-2 text-2xl font-bold">
        <Icon aria-hidden className="h-7 w-7 text-amber-600" />
        {title}
      </h1>
      {children}
    </section>
  )
}
