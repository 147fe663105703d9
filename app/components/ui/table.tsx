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
  xs: 'min-w-[20rem]',
  sm: 'min-w-[28rem]',
  md: 'min-w-[56rem]',
  lg: 'min-w-[64rem]',
  xl: 'min-w-[72rem]',
} as const

const looks = {
  /** An admin list: a scrolling card of its own. */
  list: {
    frame: 'overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm',
    head: 'bg-slate-50 text-slate-700',
    body: 'divide-y divide-slate-200',
  },
  /** A long table inside a dialog (a finished auction's bids): it scrolls under its heading. */
  scroll: {
    frame: 'max-h-80 overflow-auto rounded-lg border border-slate-200',
    head: 'sticky top-0 bg-slate-50 text-slate-700',
    body: 'divide-y divide-slate-200',
  },
  /** A short table inside a card (the dashboard's bots): no frame of its own. */
  card: { frame: 'overflow-x-auto', head: 'text-slate-700', body: 'divide-y divide-slate-100' },
} as const

/** A column heading: its text, and whether it is only for screen readers or right-aligned. */
export type Column = string | { label: string; hidden?: boolean; numeric?: boolean }

/**
 * A table: a caption for screen readers, the column headings, and the rows (`children`, one <tr>
 * each). `dense` rows for the shorter lists.
 */
export function Table({
  caption,
  columns,
  width = 'lg',
  look = 'list',
  dense = false,
  children,
}: {
  caption: string
  columns: Column[]
  width?: keyof typeof widths
  look?: keyof typeof looks
  dense?: boolean
  children: ReactNode
}) {
  const { frame, head, body } = looks[look]
  return (
    <div className={frame}>
      <table className={`w-full ${widths[width]} text-left text-sm`}>
        <caption className="sr-only">{caption}</caption>
        <thead className={head}>
          <tr>
            {columns.map((column, index) => {
              const { label, hidden, numeric } =
                typeof column === 'string' ? { label: column } : column
              const last = index === columns.length - 1
              const padding =
                look === 'card' ? `py-2${last ? '' : ' pr-3'}` : `px-3 ${dense ? 'py-2' : 'py-3'}`
              return (
                <th
                  key={label}
                  scope="col"
                  className={`${padding} font-semibold${numeric ? ' text-right' : ''}${hidden ? ' sr-only' : ''}`}
                >
                  {label}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody className={body}>{children}</tbody>
      </table>
    </div>
  )
}

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
