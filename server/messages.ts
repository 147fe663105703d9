import type { Request, Response } from 'express'
import type { Language } from '../app/i18n/config.ts'
import { visitorLanguage } from '../app/i18n/detect.server.ts'
import en from '../app/locales/en/common.json'
import ka from '../app/locales/ka/common.json'
import ky from '../app/locales/ky/common.json'
import ru from '../app/locales/ru/common.json'

// Refusals the Express server gives before Remix sees a request, in the visitor's language
// (their cookie, then Accept-Language): {"error": ...} for the JSON API, plain text for pages.

const api = { ru: ru.api, en: en.api, ka: ka.api, ky: ky.api } satisfies Record<
  Language,
  typeof ru.api
>

export async function refuse(
  req: Request,
  res: Response,
  status: number,
  key: 'badUrl' | 'crossSite' | 'tooLarge',
) {
  const message =
    api[visitorLanguage(req.get('cookie') ?? null, req.get('accept-language') ?? null)][key]
  if (req.path.startsWith('/api/')) res.status(status).json({ error: message })
  else res.status(status).type('text/plain; charset=utf-8').send(message)
}
