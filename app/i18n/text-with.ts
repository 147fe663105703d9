import type { TFunction } from 'i18next'

/**
 * A text with one value put in, for many values: translated once with a marker where the value
 * goes, then put together for each (each card's price or date; translating each anew costs
 * several times more). A text without exactly one place for the value is translated each time.
 */
export function textWith(t: TFunction, key: string, name: string): (value: string) => string {
  const marker = '\u0000'
  const parts = t(key, { [name]: marker }).split(marker)
  if (parts.length !== 2) return (value) => t(key, { [name]: value })
  const [before, after] = parts as [string, string]
  return (value) => before + value + after
}
