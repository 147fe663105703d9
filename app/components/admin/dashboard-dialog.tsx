import { useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import { dashboardHref } from '~/utils/admin-dashboard.ts'

/**
 * A dashboard form's own route (/admin/auctions/new, /admin/bots/new, …) as a dialog over the
 * dashboard: `children` gets the address its form posts to (`path`) and the one it closes to,
 * both with the dashboard's query kept.
 */
export function DashboardDialog({
  path,
  title,
  returnFocusTo,
  wide,
  children,
}: {
  path: string
  title: string
  /** The element (id) on the dashboard that gets focus when the dialog's opener is gone. */
  returnFocusTo: string
  wide?: boolean
  children: (hrefs: { action: string; closeTo: string }) => ReactNode
}) {
  const { search } = useLocation()
  const closeTo = dashboardHref('', search)
  return (
    <UrlDialog open wide={wide} closeTo={closeTo} title={title} returnFocusTo={returnFocusTo}>
      {children({ action: dashboardHref(path, search), closeTo })}
    </UrlDialog>
  )
}
