import type { ReactNode } from 'react'

const widths = { md: 'min-w-[56rem]', lg: 'min-w-[64rem]', xl: 'min-w-[72rem]' } as const

/** A column heading: its text, and whether it is only for screen readers or right-aligned. */
export type Column = string | { label: string; hidden?: boolean; numeric?: boolean }

/**
 * The admin lists' table: a scrolling card, a caption for screen readers, the column headings,
 * and the rows (`children`, one <tr> each). `dense` rows for the shorter lists.
 */
export function Table({
  caption,
  columns,
  width = 'lg',
  dense = false,
  children,
}: {
  caption: string
  columns: Column[]
  width?: keyof typeof widths
  dense?: boolean
  children: ReactNode
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className={`w-full ${widths[width]} text-left text-sm`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {columns.map((column) => {
              const { label, hidden, numeric } =
                typeof column === 'string' ? { label: column } : column
              return (
                <th
                  key={label}
                  scope="col"
                  className={`px-3 ${dense ? 'py-2' : 'py-3'} font-semibold${numeric ? ' text-right' : ''}${hidden ? ' sr-only' : ''}`}
                >
                  {label}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  )
}
