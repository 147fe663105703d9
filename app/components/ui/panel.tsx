import type { ReactNode } from 'react'

/** The white card a page groups one of its parts in. */
export const panelLook = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm'

/**
 * A part of a page named by its heading (`id` is the heading's, which names the section for
 * assistive technology): the card look by default, or `look` for a part that stands out;
 * `className` adds to the look (spacing, height).
 */
export function Panel({
  id,
  heading,
  look = panelLook,
  className = '',
  headingClassName = 'mb-3 text-xl font-semibold',
  children,
}: {
  id: string
  heading: ReactNode
  look?: string
  className?: string
  headingClassName?: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id} className={`${className} ${look}`.trim()}>
      <h2 id={id} className={headingClassName}>
        {heading}
      </h2>
      {children}
    </section>
  )
}

const statLooks = {
  /** A card's figures (the profile's, a bid history's). */
  md: {
    tile: 'rounded-lg bg-slate-50 p-3',
    label: 'text-xs text-slate-600',
    value: 'text-lg font-bold',
  },
  /** The dashboard's big counters. */
  lg: {
    tile: 'rounded-lg bg-slate-50 p-3',
    label: 'text-sm text-slate-700',
    value: 'mt-1 text-2xl font-bold tabular-nums',
  },
  /** Counters in a dialog, boxed apart from the text around them. */
  boxed: {
    tile: 'rounded-lg border border-slate-200 bg-slate-50 p-3',
    label: 'text-xs text-slate-700',
    value: 'text-xl font-bold tabular-nums',
  },
} as const

/** Labelled figures in tiles: `items` are [label, value] pairs, `className` lays out the grid. */
export function StatList({
  items,
  look = 'md',
  className,
}: {
  items: ReadonlyArray<readonly [string, ReactNode]>
  look?: keyof typeof statLooks
  className: string
}) {
  const { tile, label, value } = statLooks[look]
  return (
    <dl className={className}>
      {items.map(([name, figure]) => (
        <div key={name} className={tile}>
          <dt className={label}>{name}</dt>
          <dd className={value}>{figure}</dd>
        </div>
      ))}
    </dl>
  )
}

const emptyLooks = {
  /** Inside a card or dialog (a list of bids, an activity). */
  inset: 'rounded-lg p-4',
  /** A page's own list (orders, wins, the admin lists). */
  page: 'rounded-xl p-6',
  /** A section of a public page (the home page, the bid history). */
  section: 'rounded-lg p-6',
  /** The catalogue, where the whole page is the list. */
  wide: 'rounded-lg p-8',
} as const

/** What an empty list says in its place: a dashed box with the text. */
export function EmptyNote({
  look,
  children,
}: {
  look: keyof typeof emptyLooks
  children: ReactNode
}) {
  return (
    <p
      className={`${emptyLooks[look]} border border-dashed border-slate-300 text-center text-slate-600`}
    >
      {children}
    </p>
  )
}
