// Money is an integer number of minor units (1 som = 100 tyiyn) everywhere inside;
// it is formatted only here, at the edge (docs/decisions/003-money-minor-units.md).

export const MINOR_PER_MAJOR = 100

const formatter = new Intl.NumberFormat('ru-RU', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})

/** `123456` -> `1 234,56 сом` (ru-RU grouping, two decimals, then the symbol). */
export function formatMoney(minor: number, symbol: string): string {
  return `${formatter.format(minor / MINOR_PER_MAJOR)} ${symbol}`.trim()
}

/** Minor units -> the JSON API's number of som (`150` -> `1.5`). */
export function toMajor(minor: number): number {
  return minor / MINOR_PER_MAJOR
}

/**
 * A user's amount in som (string or number, `.` or `,` as the decimal mark, at most two
 * decimals) -> minor units, or null when it is not a valid non-negative amount.
 */
export function parseMoney(input: string | number): number | null {
  const text = String(input).trim().replace(/\s/g, '').replace(',', '.')
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null
  const [whole, fraction = ''] = text.split('.')
  const minor = Number(whole) * MINOR_PER_MAJOR + Number(fraction.padEnd(2, '0'))
  return Number.isSafeInteger(minor) ? minor : null
}
