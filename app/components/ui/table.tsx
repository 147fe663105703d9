import { Link } from '@remix-run/react'
import {
  Activity,
  BarChart3,
  ExternalLink,
  Pencil,
  Square,
  Trash2,
  type LucideIcon,
} from 'lucide-react'
import type { ReactNode } from 'react'
import { buttonClass, type ButtonVariant } from '~/components/ui/button.tsx'

const widths = {
  /** As wide as its box, wider only when its cells need it. */
  fit: '',
  xs: 'min-w-[20rem]',
  sm: 'min-w-[28rem]',
  /** A table in a dialog's part (a person's activity). */
  dialog: 'min-w-[32rem]',
  md: 'min-w-[56rem]',
  lg: 'min-w-[64rem]',
  xl: 'min-w-[72rem]',
} as const

type Place = { dense: boolean; last: boolean }

/** A column heading's padding and weight: in a list, in a card, in a record, or the browser's. */
const headings = {
  list: ({ dense }: Place) => `px-3 ${dense ? 'py-2' : 'py-3'} font-semibold`,
  card: ({ last }: Place) => `py-2${last ? '' : ' pr-3'} font-semibold`,
  ruled: () => 'py-2 pr-3',
  bare: () => '',
} as const

const looks = {
  /** An admin list: a scrolling card of its own. */
  list: {
    frame: 'overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm',
    head: 'bg-slate-50 text-slate-700',
    body: 'divide-y divide-slate-200',
    heading: headings.list,
  },
  /** An admin list of records (payments): its card without a shadow, lighter rules. */
  records: {
    frame: 'overflow-x-auto rounded-xl border border-slate-200 bg-white',
    head: 'bg-slate-50 text-slate-700',
    body: 'divide-y divide-slate-100',
    heading: headings.list,
  },
  /** A long table inside a dialog (a finished auction's bids): it scrolls under its heading. */
  scroll: {
    frame: 'max-h-80 overflow-auto rounded-lg border border-slate-200',
    head: 'sticky top-0 bg-slate-50 text-slate-700',
    body: 'divide-y divide-slate-200',
    heading: headings.list,
  },
  /** A table in a dialog's part (a person's activity): framed, as long as its rows. */
  inset: {
    frame: 'overflow-x-auto rounded-lg border border-slate-200',
    head: 'bg-slate-50 text-slate-700',
    body: 'divide-y divide-slate-200',
    heading: headings.list,
  },
  /** A short table inside a card (the dashboard's bots): no frame of its own. */
  card: {
    frame: 'overflow-x-auto',
    head: 'text-slate-700',
    body: 'divide-y divide-slate-100',
    heading: headings.card,
  },
  /** A running record in a card (an auction's bids): small capitals over ruled rows. */
  ruled: {
    frame: 'overflow-x-auto',
    head: 'border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600',
    body: 'divide-y divide-slate-100',
    heading: headings.ruled,
  },
  /** A grid of choices in a form (alert kinds by channel): no frame, the rows rule themselves. */
  grid: { frame: null, head: '', body: '', heading: headings.bare },
} as const

/**
 * A column heading: its text, and whether it is only for screen readers, right-aligned (a
 * number) or centred (a column of checkboxes).
 */
export type Column =
  string | { label: string; hidden?: boolean; numeric?: boolean; centred?: boolean }

/**
 * A table: its name for screen readers (a `caption` of its own, or the heading `labelledBy`
 * names; a table in a named part may have neither), the column headings, and the rows
 * (`children`, one <tr> each). `dense` rows for the shorter lists.
 */
export function Table({
  caption,
  labelledBy,
  columns,
  width = 'lg',
  look = 'list',
  dense = false,
  children,
}: {
  caption?: string
  labelledBy?: string
  columns: Column[]
  width?: keyof typeof widths
  look?: keyof typeof looks
  dense?: boolean
  children: ReactNode
}) {
  const { frame, head, body, heading } = looks[look]
  const table = (
    <table
      aria-labelledby={labelledBy}
      className={classes('w-full', widths[width], 'text-left text-sm')}
    >
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className={head || undefined}>
        <tr>
          {columns.map((column, index) => {
            const { label, hidden, numeric, centred } =
              typeof column === 'string' ? { label: column } : column
            const last = index === columns.length - 1
            return (
              <th
                key={label}
                scope="col"
                className={
                  classes(
                    heading({ dense, last }),
                    numeric && 'text-right',
                    centred && 'text-center',
                    hidden && 'sr-only',
                  ) || undefined
                }
              >
                {label}
              </th>
            )
          })}
        </tr>
      </thead>
      <tbody className={body || undefined}>{children}</tbody>
    </table>
  )
  return frame ? <div className={frame}>{table}</div> : table
}

const classes = (...names: Array<string | false | undefined>) => names.filter(Boolean).join(' ')

const rowActions = {
  /** The row's own page, away from the list. */
  view: { icon: ExternalLink, variant: 'outline', dialog: false },
  edit: { icon: Pencil, variant: 'outline', dialog: true },
  activity: { icon: Activity, variant: 'outline', dialog: true },
  stats: { icon: BarChart3, variant: 'accent', dialog: true },
  end: { icon: Square, variant: 'accent', dialog: true },
  delete: { icon: Trash2, variant: 'dangerOutline', dialog: true },
} as const satisfies Record<string, { icon: LucideIcon; variant: ButtonVariant; dialog: boolean }>

export type RowActionKind = keyof typeof rowActions

/**
 * A row's last cell: its actions side by side, each a link looking like a small button with the
 * action's icon and colour (the same action looks the same in every list), its `text`, and a
 * `label` naming the row for screen readers. An action that opens a dialog over the list keeps
 * the list's scroll position.
 */
export function RowActions<Action extends RowActionKind>({
  actions,
  href,
  text,
  label,
  dense = false,
}: {
  actions: Action[]
  href: (action: Action) => string
  text: (action: Action) => string
  label: (action: Action) => string
  dense?: boolean
}) {
  return (
    <td className={`px-3 ${dense ? 'py-2' : 'py-3'}`}>
      <div className="flex flex-wrap gap-1">
        {actions.map((action) => {
          const { icon: Icon, variant, dialog } = rowActions[action]
          return (
            <Link
              key={action}
              to={href(action)}
              preventScrollReset={dialog || undefined}
              aria-label={label(action)}
              className={buttonClass({ variant, size: 'sm' })}
            >
              <Icon aria-hidden className="h-4 w-4" />
              {text(action)}
            </Link>
          )
        })}
      </div>
    </td>
  )
}
