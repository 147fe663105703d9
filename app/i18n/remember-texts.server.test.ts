import { createInstance } from 'i18next'
import { expect, test } from 'vitest'
import { i18nOptions } from '~/i18n/config.ts'
import { rememberPlainTexts } from '~/i18n/remember-texts.server.ts'
import { resources } from '~/i18n/resources.server.ts'

async function instances(lng: string) {
  const plain = createInstance()
  await plain.init({ ...i18nOptions, lng, ns: ['common'], resources })
  const remembering = createInstance()
  await remembering.init({ ...i18nOptions, lng, ns: ['common'], resources })
  return { plain, remembering: rememberPlainTexts(remembering) }
}

test('remembered texts are the texts, in each language; values put in are worked out each time', async () => {
  for (const lng of ['ru', 'en', 'ky', 'ka']) {
    const { plain, remembering } = await instances(lng)
    const expected = plain.getFixedT(lng, 'common')
    const t = remembering.getFixedT(lng, 'common')
    // The same function for the same language and namespace: made once.
    expect(remembering.getFixedT(lng, 'common')).toBe(t)
    for (const key of ['auction.bidButton', 'nav.howItWorks', 'auction.status.live']) {
      expect(t(key)).toBe(expected(key))
      expect(t(key)).toBe(expected(key))
    }
    expect(t('home.retail', { price: '1 сом' })).toBe(expected('home.retail', { price: '1 сом' }))
    expect(t('home.retail', { price: '2 сом' })).toBe(expected('home.retail', { price: '2 сом' }))
    expect(t('home.retail', { price: '2 сом' })).not.toBe(t('home.retail', { price: '1 сом' }))
    expect(t('auctionsPage.count', { count: 5 })).toBe(expected('auctionsPage.count', { count: 5 }))
  }
  const { remembering } = await instances('ru')
  // A key prefix is part of what a function is made for.
  expect(remembering.getFixedT('ru', 'common', 'auction')('bidButton')).toBe(
    remembering.getFixedT('ru', 'common')('auction.bidButton'),
  )
})
