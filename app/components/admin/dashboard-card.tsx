import type { ReactNode } from 'react'

/** A card of the admin dashboard: a section named by its heading, with an optional icon. */
export function DashboardCard({
  id,
  heading,
  icon,
  children,
}: {
  /** The heading's id, which names the section for assistive technology. */
  id: string
  heading: ReactNode
  icon?: ReactNode
  children: ReactNode
}) {
  return (
    <section
      aria-labelledby={id}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={id} className="flex items-center gap-2 text-xl font-semibold">
        {icon}
        {heading}
      </h2>
      {children}
    </section>
  )
}
