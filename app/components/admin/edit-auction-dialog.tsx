import type { SubmissionResult } from '@conform-to/react'
import { useLocation } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuctionBots } from '~/components/admin/dashboard-auction-bots.tsx'
import { AuctionForm } from '~/components/admin/dashboard-auction-form.tsx'
import { UrlDialog } from '~/components/admin/url-dialog.tsx'
import type { AuctionForEdit } from '~/models/admin-dashboard.server.ts'
import { DASHBOARD_NS, dashboardHref } from '~/utils/admin-dashboard.ts'

/**
 * The edit dialog of an auction: its fields, and its bots. Three routes render it, each with the
 * refusal of its own form: admin._dashboard.auctions.$id.edit (the fields), ….assign and
 * ….unassign (a bot added or removed, answered this way only without JavaScript).
 */
export function EditAuctionDialog({
  edit,
  formResult,
  assignResult,
  unassignError,
}: {
  edit: AuctionForEdit
  formResult?: SubmissionResult<string[]>
  assignResult?: SubmissionResult<string[]>
  unassignError?: string | null
}) {
  const { t } = useTranslation(DASHBOARD_NS)
  const { search } = useLocation()
  const closeTo = dashboardHref('', search)
  // Gone or finished since the dialog opened: after a post, that is the answer to announce.
  const refused = Boolean(formResult ?? assignResult ?? unassignError)
  const url = (action: string) =>
    dashboardHref(`/auctions/${encodeURIComponent(edit.id)}/${action}`, search)
  return (
    <UrlDialog
      open
      wide
      closeTo={closeTo}
      title={t('form.editTitle', { title: edit.auction?.title ?? '' })}
      returnFocusTo="auctions-heading"
    >
      {edit.auction && edit.auction.status !== 'finished' ? (
        <div className="space-y-6">
          <AuctionForm
            key={edit.auction.id}
            mode="edit"
            auction={edit.auction}
            action={url('edit')}
            lastResult={formResult}
            closeTo={closeTo}
          />
          <AuctionBots
            auction={edit}
            assignAction={url('assign')}
            unassignAction={url('unassign')}
            assignResult={assignResult}
            unassignError={unassignError}
          />
        </div>
      ) : (
        <p role={refused ? 'alert' : undefined} className="text-slate-700">
          {t(edit.auction ? 'admin:errors.auctionFinished' : 'form.notFound')}
        </p>
      )}
    </UrlDialog>
  )
}
