import type { Request, Response } from 'express'
import type { Language } from '../app/i18n/config.ts'
import { visitorLanguage } from '../app/i18n/detect.server.ts'
import { escapeHtml } from '../app/utils/html.ts'
import en from '../app/locales/en/common.json'
import ka from '../app/locales/ka/common.json'
import ky from '../app/locales/ky/common.json'
import ru from '../app/locales/ru/common.json'

// Refusals the Express server gives before Remix sees a request, in the visitor's language
// (their cookie, then Accept-Language): {"error": ...} for the JSON API; for pages a small HTML
// page with a way back when a browser asks (a form too large, a post from another site), plain
// text otherwise.

const api = { ru: ru.api, en: en.api, ka: ka.api, ky: ky.api } satisfies Record<
  Language,
  typeof ru.api
>
const back = { ru: ru.errors.back, en: en.errors.back, ka: ka.errors.back, ky: ky.errors.back }

export async function refuse(
  req: Request,
  res: Response,
  status: number,
  key: 'badUrl' | 'crossSite' | 'tooLarge',
) {
  const language = await visitorLanguage(
    req.get('cookie') ?? null,
    req.get('accept-language') ?? null,
  )
  const message = api[language][key]
  if (req.path.startsWith('/api/')) res.status(status).json({ error: message })
  else if (req.accepts(['text/plain', 'html']) === 'html')
    res
      .status(status)
      .type('html')
      .send(
        `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(message)}</title></head><body><main><h1>${escapeHtml(message)}</h1><p><a href="${escapeHtml(backTo(req))}">${escapeHtml(back[language])}</a></p></main></body></html>`,
      )
  else res.status(status).type('text/plain; charset=utf-8').send(message)
}

/**
 * Back to the page the visitor came from when it is one of ours, else the home page. Leading
 * slashes are one: a path `//host/x` written into a link would be another site's address.
 */
function backTo(req: Request): string {
  const referer = req.get('referer')
  if (!referer) return '/'
  try {
    const url = new URL(referer)
    if (url.host !== req.get('host')) return '/'
    return url.pathname.replace(/^\/+/, '/') + url.search
  } catch {
    return '/'
  }
}
