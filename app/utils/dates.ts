// Dates use the ru-RU format (docs/rules.md#dates-and-times) in the market's time zone, so the server's
// render and the browser's hydration print the same text wherever either runs.
export const TIME_ZONE = 'Asia/Bishkek'
/** Bishkek is UTC+6 all year (no daylight saving since 2005). */
export const TIME_ZONE_OFFSET = '+06:00'

const dateFormat = new Intl.DateTimeFormat('ru-RU', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
})
const dateTimeFormat = new Intl.DateTimeFormat('ru-RU', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})
const timeFormat = new Intl.DateTimeFormat('ru-RU', {
  timeZone: TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

type DateInput = Date | string | number

export function formatDate(value: DateInput): string {
  return dateFormat.format(new Date(value))
}

export function formatDateTime(value: DateInput): string {
  return dateTimeFormat.format(new Date(value))
}

export function formatTime(value: DateInput): string {
  return timeFormat.format(new Date(value))
}

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * A countdown from milliseconds left: `mm:ss` under an hour, `hh:mm:ss` from an hour on
 * (docs/rules.md#dates-and-times); days are counted into the hours. Never negative.
 */
export function formatCountdown(msLeft: number): string {
  const totalSeconds = Math.max(0, Math.ceil(msLeft / 1000))
  const hours = Math.floor(totalSeconds / 3600)
  const minutes = Math.floor((totalSeconds % 3600) / 60)
  const seconds = totalSeconds % 60
  return hours > 0
    ? `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`
    : `${pad(minutes)}:${pad(seconds)}`
}
