import { createInstance } from 'i18next'
import { expect, test } from 'vitest'
import { i18nOptions, supportedLanguages } from '~/i18n/config.ts'
import { resources } from '~/i18n/resources.server.ts'
import { textWith } from '~/i18n/text-with.ts'

test('a text made once for many values is the translation of each value, in every language', async () => {
  for (const lng of supportedLanguages) {
    const i18n = createInstance()
    await i18n.init({ ...i18nOptions, lng, ns: ['common'], resources })
    const t = i18n.getFixedT(lng, 'common')
    const cases = [
      ['home.retail', 'price', ['1 000,00 сом', '0,01 сом']],
      ['auction.startsAt', 'date', ['24.11.2026, 17:11']],
      ['home.winner', 'name', ['alice', '<b>&"\'</b>', '$1 $& {{name}}']],
    ] as const
    for (const [key, name, values] of cases) {
      const text = textWith(t, key, name)
      for (const value of values) expect(text(value)).toBe(t(key, { [name]: value }))
    }
  }
})

test('a text with no place, or two places, for the value is translated each time', () => {
  const t = ((key: string, values: Record<string, string>) =>
    key === 'none' ? 'no value here' : `${values.v} and ${values.v}`) as never
  expect(textWith(t, 'none', 'v')('x')).toBe('no value here')
  expect(textWith(t, 'twice', 'v')('x')).toBe('x and x')
})
