import {
  flashOf,
  getPage,
  isText,
  messagesIn,
  messagesOf,
  nextCookie,
  type Answer,
  type Language,
} from './pages.ts'

// What the page-action fuzz (fuzz-pages-*.e2e.ts) accepts as an answer to a hostile post: never a
// 5xx; a refusal is a 4xx page or a redirect that shows why, in the visitor's language.

/** Follows redirects as a browser does, carrying the answer's cookies (not the language). */
async function follow(answer: Answer, cookie: string, language: Language) {
  let jar = nextCookie(cookie, answer.cookies, (name) => name !== 'lng')
  let to = answer.location ?? '/'
  for (let hop = 0; hop < 4; hop++) {
    const page = await getPage(to, jar, language)
    const again = page.status >= 300 && page.status < 400 ? page.location : null
    if (!again) return page
    jar = nextCookie(jar, page.cookies, (name) => name !== 'lng')
    to = again
  }
  throw new Error(`too many redirects from ${answer.location}`)
}

/** The refusals already read on the page they redirect to, by cookie, page, language, text. */
const shownAlready = new Set<string>()

/** What is wrong with an answer a person gets, or null. */
export async function problemWith(answer: Answer, cookie: string, language: Language) {
  if (answer.status >= 500) return `${answer.status} ${answer.text.slice(0, 120)}`
  if (answer.status >= 300 && answer.status < 400) {
    const to = answer.location ?? ''
    if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) {
      return `redirect off the site: ${to}`
    }
    const flash = flashOf(answer.cookies)
    if (!flash) return null
    if (!isText(flash.description, language)) {
      return `message not in ${language}: ${flash.description.slice(0, 80)}`
    }
    if (flash.type !== 'error') return null
    // A refusal told on the next page: that page must show it. The same message on the same
    // page for the same person in the same language is rendered the same way, whichever
    // hostile post led there: it is read once.
    const seen = JSON.stringify([cookie, to, language, flash.description])
    if (shownAlready.has(seen)) return null
    const page = await follow(answer, cookie, language)
    if (page.status >= 500) return `the page it redirects to answers ${page.status}`
    const shown = messagesOf(page.text).flat()
    if (!shown.includes(flash.description)) return `message not shown: ${flash.description}`
    shownAlready.add(seen)
    return null
  }
  if (answer.status < 400) return null
  if (answer.type.includes('text/html')) {
    return messagesIn(answer.text, language).length
      ? null
      : `${answer.status} page without a message in ${language}: ${messagesOf(answer.text)
          .flat()
          .join(' | ')
          .slice(0, 120)}`
  }
  let message: unknown = answer.text
  if (answer.type.includes('json')) {
    const json = JSON.parse(answer.text) as { error?: unknown; message?: unknown }
    message = json.error ?? json.message
  }
  return typeof message === 'string' && isText(message, language)
    ? null
    : `${answer.status} ${answer.type} without a message in ${language}: ${answer.text.slice(0, 80)}`
}
