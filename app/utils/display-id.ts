// An auction's public id: `PA-` and a six-digit, zero-padded sequence number (`PA-000042`).
const PREFIX = 'PA-'
const DIGITS = 6

export function formatDisplayId(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Invalid display number: ${n}`)
  return `${PREFIX}${String(n).padStart(DIGITS, '0')}`
}
