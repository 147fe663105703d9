import { Link } from '@remix-run/react'
import { ArrowLeft } from 'lucide-react'
import type { ReactNode } from 'react'

/**
 * An admin page's heading: the way back to the dashboard, the title, a lead line and what else
 * the page says first (`children`: a count).
 */
export function AdminPageHeader({
  back,
  title,
  lead,
  children,
}: {
  back: string
  title: string
  lead: string
  children?: ReactNode
}) {
  return (
    <div className="space-y-2">
      <Link
        to="/admin"
        className="inline-flex items-center gap-1 text-sm font-semibold text-amber-800 underline-offset-2 hover:underline"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        {back}
      </Link>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-slate-700">{lead}</p>
      {children}
    </div>
  )
}
