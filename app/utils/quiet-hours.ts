// Quiet hours (docs/rules.md#alerts), whole hours in Bishkek time. Kyrgyzstan keeps UTC+6 all
// year (no daylight saving time), so the offset is a constant.

const BISHKEK_OFFSET_MS = 6 * 3600_000
const HOUR_MS = 3600_000

export type QuietHours = { quietFrom: number | null; quietTo: number | null }

export function isQuietHour(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 23
}

/** The hour (0-23) in Bishkek at `now` (ms). */
export function bishkekHour(now: number) {
  return new Date(now + BISHKEK_OFFSET_MS).getUTCHours()
}

/**
 * When the quiet hours that hold `now` end (ms), or null when `now` is not in quiet hours.
 * `quietFrom` > `quietTo` spans midnight (22 to 7); equal hours or an unset one mean none.
 */
export function quietUntil(now: number, { quietFrom, quietTo }: QuietHours): number | null {
  if (!isQuietHour(quietFrom) || !isQuietHour(quietTo) || quietFrom === quietTo) return null
  const hour = bishkekHour(now)
  const quiet =
    quietFrom < quietTo ? hour >= quietFrom && hour < quietTo : hour >= quietFrom || hour < quietTo
  if (!quiet) return null
  const hourStart = Math.floor(now / HOUR_MS) * HOUR_MS
  return hourStart + ((quietTo - hour + 24) % 24) * HOUR_MS
}
