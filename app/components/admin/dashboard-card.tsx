import type { ReactNode } from 'react'
import { Panel } from '~/components/ui/panel.tsx'

/** A card of the admin dashboard: a section named by its heading, with an optional icon. */
export function DashboardCard({
  id,
  heading,
  icon,
  gap = 'space-y-4',
  children,
}: {
  /** The heading's id, which names the section for assistive technology. */
  id: string
  heading: ReactNode
  icon?: ReactNode
  /** The space between its parts. */
  gap?: string
  children: ReactNode
}) {
  return (
    <Panel
      id={id}
      heading={
        <>
          {icon}
          {heading}
        </>
      }
      className={gap}
      headingClassName="flex items-center gap-2 text-xl font-semibold"
    >
      {children}
    </Panel>
  )
}
