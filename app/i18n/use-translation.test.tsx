import { createInstance, type i18n as I18n } from 'i18next'
import { renderToString } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { expect, test } from 'vitest'
import { i18nOptions } from '~/i18n/config.ts'
import { resources } from '~/i18n/resources.server.ts'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Rich } from '~/components/static-page.tsx'

async function instance(lng: string): Promise<I18n> {
  const i18n = createInstance()
  // A copy: i18next keeps the object it is given, and the tests below change their copy.
  await i18n
    .use(initReactI18next)
    .init({ ...i18nOptions, lng, ns: ['common', 'pages'], resources: structuredClone(resources) })
  return i18n
}

function Texts() {
  const { t } = useTranslation()
  const { t: tPages } = useTranslation('pages')
  return (
    <p>
      {t('nav.home')}|{t('home.retail', { price: '5,00' })}|{tPages('shared.contents')}|
      {t('no.such.key')}
    </p>
  )
}

function render(i18n: I18n) {
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <Texts />
    </I18nextProvider>,
  )
  return html.replace(/<!-- -->|<\/?p>/g, '')
}

test('texts are those i18next gives, per language and namespace, with options resolved each time', async () => {
  for (const lng of ['ru', 'en', 'ky']) {
    const i18n = await instance(lng)
    const t = i18n.getFixedT(lng, 'common')
    const expected = [
      t('nav.home'),
      t('home.retail', { price: '5,00' }),
      i18n.getFixedT(lng, 'pages')('shared.contents'),
      'no.such.key',
    ]
    expect(expected[0]).not.toBe('nav.home')
    expect(expected[2]).not.toBe('shared.contents')
    const html = render(i18n)
    expect(html).toBe(expected.join('|'))
  }
})

test('a text without options is resolved once per instance and language, then kept', async () => {
  const i18n = await instance('en')
  const first = render(i18n)
  // A change to the resources after the first render is not seen by the texts already kept,
  // which shows they are not resolved again; a text with options still is.
  i18n.addResource('en', 'common', 'nav.home', 'Changed')
  i18n.addResource('en', 'common', 'home.retail', 'Changed {{price}}')
  const second = render(i18n)
  expect(second.split('|')[0]).toBe(first.split('|')[0])
  expect(second.split('|')[0]).toBe('Home')
  expect(second).toContain('Changed 5,00')

  // Another instance (another language's, as the server makes them) keeps its own texts.
  const other = await instance('en')
  other.addResource('en', 'common', 'nav.home', 'Other home')
  expect(render(other).split('|')[0]).toBe('Other home')
})

test('<Trans> given this t finds its key in the namespace the t was made for', async () => {
  const i18n = await instance('en')
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <Rich k="howItWorks.steps.register.text" />
    </I18nextProvider>,
  )
  expect(html).toContain('get <strong class="font-semibold text-slate-900">5 free bids</strong>')
})

test('a t kept from before a change of language resolves in the new language and keeps nothing', async () => {
  const i18n = await instance('ru')
  let kept: ((key: string) => string) | undefined
  function Keeper() {
    const { t } = useTranslation()
    kept = t
    return <p>{t('nav.home')}</p>
  }
  const render = () =>
    renderToString(
      <I18nextProvider i18n={i18n}>
        <Keeper />
      </I18nextProvider>,
    )
  const inRussian = i18n.getFixedT('ru', 'common')
  const inEnglish = i18n.getFixedT('en', 'common')
  expect(render()).toBe(`<p>${inRussian('nav.home')}</p>`)
  await i18n.changeLanguage('en')
  // An event handler rendered in Russian, called after the change.
  expect(kept!('nav.home')).toBe(inEnglish('nav.home'))
  expect(kept!('nav.menu')).toBe(inEnglish('nav.menu'))
  await i18n.changeLanguage('ru')
  expect(render()).toBe(`<p>${inRussian('nav.home')}</p>`)
  expect(kept!('nav.menu')).toBe(inRussian('nav.menu'))
  expect(inRussian('nav.menu')).not.toBe(inEnglish('nav.menu'))
})
