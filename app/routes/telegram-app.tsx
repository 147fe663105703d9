import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useActionData, useLocation, useNavigation, useSubmit } from '@remix-run/react'
import { Loader2, Send } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { getTelegramConfig } from '~/services/telegram/config.server.ts'
import { launchMiniApp, type MiniAppLaunch } from '~/services/telegram/mini-app.server.ts'
import { readForm } from '~/utils/form.server.ts'
import { combineHeaders, safeRedirect } from '~/utils/http.ts'
import { loginHref } from '~/utils/login-href.ts'
import { titleMeta } from '~/utils/meta.ts'
import { useHydrated } from '~/utils/hooks.ts'
import { telegramWebApp } from '~/utils/telegram-web-app.ts'

// /telegram-app: the site opened as the bot's Mini App (docs/rules.md#telegram-mini-app). The
// page sends the launch data Telegram gave it; the server checks it and signs the linked person
// in, then sends them on (an auction's page when the button was an auction's). Without
// JavaScript, or outside Telegram, it says how to open it and links to the site.

export const meta = titleMeta

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request)
  if (!getTelegramConfig()) throw new Response(t('api.notFound'), { status: 404 })
  return { title: t('miniApp.title') }
}

type Refusal = Exclude<MiniAppLaunch, { ok: true }>['reason'] | 'missing'
const STATUS: Record<Refusal, number> = {
  link: 200,
  missing: 400,
  invalid: 401,
  expired: 401,
  chatTaken: 409,
  off: 404,
}

export async function action({ request, context }: ActionFunctionArgs) {
  const t = await getFixedT(request)
  const form = await readForm(request)
  const initData = form.get('initData')
  const to = safeRedirect(form.get('to'))
  const outcome: MiniAppLaunch | { ok: false; reason: 'missing' } =
    typeof initData === 'string' && initData
      ? await launchMiniApp(request, context, initData, to)
      : { ok: false, reason: 'missing' }
  if (outcome.ok) {
    const headers = combineHeaders(...outcome.cookies.map((cookie) => ({ 'Set-Cookie': cookie })))
    return redirect(outcome.to, { headers })
  }
  const { reason } = outcome
  return data({ reason, message: t(`miniApp.refused.${reason}`) }, { status: STATUS[reason] })
}

export default function TelegramApp() {
  const { t } = useTranslation()
  const answer = useActionData<typeof action>()
  const navigation = useNavigation()
  const submit = useSubmit()
  const location = useLocation()
  const back = loginHref(location.pathname + location.search)
  // An alert's "Open" names the page to go on to.
  const to = new URLSearchParams(location.search).get('to') ?? '/'
  const hydrated = useHydrated()
  const sent = useRef(false)
  const [outside, setOutside] = useState(false)

  // Once: the launch data Telegram gave this page goes to the server.
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    void telegramWebApp().then((app) => {
      const initData = app?.initData ?? ''
      if (!initData) return setOutside(true)
      submit({ initData, to }, { method: 'post', replace: true })
    })
  }, [submit, to])

  // From hydration until an answer: Telegram's script loads, then the launch data is sent.
  const busy = navigation.state !== 'idle' || (hydrated && !answer && !outside)
  return (
    <section className="mx-auto max-w-md rounded-xl bg-white p-6 text-center shadow-sm">
      <Send aria-hidden className="mx-auto h-10 w-10 text-sky-600" />
      <h1 className="mt-3 text-xl font-bold">{t('miniApp.title')}</h1>
      {answer?.reason === 'link' ? (
        <>
          <p className="mt-3 text-slate-700">{answer.message}</p>
          <div className="mt-5 flex flex-col gap-2">
            <Link
              to={back}
              className="rounded-lg bg-amber-700 px-4 py-3 font-semibold text-white hover:bg-amber-800"
            >
              {t('miniApp.login')}
            </Link>
            <Link
              to={`${back}&tab=register`}
              className="rounded-lg border border-slate-300 px-4 py-3 font-semibold text-slate-800 hover:bg-slate-50"
            >
              {t('miniApp.register')}
            </Link>
          </div>
        </>
      ) : answer ? (
        <>
          <p role="alert" className="mt-3 font-medium text-red-700">
            {answer.message}
          </p>
          <button
            type="button"
            onClick={() => {
              void telegramWebApp().then((app) => {
                if (app?.initData) submit({ initData: app.initData, to }, { method: 'post' })
              })
            }}
            className="mt-4 rounded-lg bg-amber-700 px-4 py-3 font-semibold text-white hover:bg-amber-800"
          >
            {t('miniApp.retry')}
          </button>
        </>
      ) : busy ? (
        <p className="mt-3 flex items-center justify-center gap-2 text-slate-700" role="status">
          <Loader2 aria-hidden className="h-5 w-5 animate-spin" />
          {t('miniApp.signingIn')}
        </p>
      ) : (
        <p className="mt-3 text-slate-700">{t('miniApp.openInTelegram')}</p>
      )}
      <Link to="/" className="mt-5 inline-block text-sm font-medium text-sky-800 underline">
        {t('miniApp.toSite')}
      </Link>
    </section>
  )
}
