import { useLocation, useNavigate } from '@remix-run/react'
import type TelegramWebApp from '@twa-dev/sdk'
import { useEffect, useRef } from 'react'
import { useOptionalRootData } from '~/utils/hooks.ts'

// The page inside Telegram, as the bot's Mini App (docs/rules.md#telegram-mini-app), through
// Telegram's own Mini App script (Telegram.WebApp, https://core.telegram.org/bots/webapps#initializing-mini-apps),
// loaded only on pages open inside Telegram, and only once the page is interactive: nothing of
// it is needed to read or bid without JavaScript.

type WebApp = typeof TelegramWebApp

/** The address the bot's menu button and alert buttons open. */
export const MINI_APP_PATH = '/telegram-app'

let loading: Promise<WebApp | null> | undefined

/** Telegram.WebApp, loaded on first use; null on the server. */
export function telegramWebApp(): Promise<WebApp | null> {
  if (typeof window === 'undefined') return Promise.resolve(null)
  loading ??= import('@twa-dev/sdk').then(
    (module) => module.default,
    () => null,
  )
  return loading
}

/** Whether this page is open inside Telegram (the server knows it from the first request). */
export function useInTelegram() {
  const data = useOptionalRootData()
  const location = useLocation()
  return Boolean(data?.telegram) || location.pathname === MINI_APP_PATH
}

/**
 * Inside Telegram: tells Telegram the page is ready and takes the whole height; shows
 * Telegram's back button on every page but the home page, going back in the page's history
 * (or home when there is none).
 */
export function useTelegramShell() {
  const inTelegram = useInTelegram()
  const location = useLocation()
  const navigate = useNavigate()
  const inner = location.pathname !== '/' && location.pathname !== MINI_APP_PATH
  useEffect(() => {
    if (!inTelegram) return
    let app: WebApp | null = null
    // Telegram's light or dark theme, for the colours the page takes from it (app/tailwind.css).
    const scheme = () => {
      if (app) document.documentElement.dataset.telegramScheme = app.colorScheme
    }
    void telegramWebApp().then((loaded) => {
      app = loaded
      if (!app) return
      scheme()
      app.onEvent('themeChanged', scheme)
      app.ready()
      app.expand()
    })
    return () => app?.offEvent('themeChanged', scheme)
  }, [inTelegram])
  useEffect(() => {
    if (!inTelegram) return
    let app: WebApp | null = null
    const back = () => {
      if (location.key !== 'default') navigate(-1)
      else navigate('/')
    }
    void telegramWebApp().then((loaded) => {
      app = loaded
      if (!app) return
      if (inner) {
        app.BackButton.onClick(back)
        app.BackButton.show()
      } else app.BackButton.hide()
    })
    return () => {
      app?.BackButton.offClick(back)
    }
  }, [inTelegram, inner, location.key, navigate])
}

export type MainButton = { text: string; disabled: boolean; onClick: () => void }

/**
 * Telegram's main button at the bottom of the Mini App, while `button` is given and the page
 * is inside Telegram; hidden again when the page leaves.
 */
export function useTelegramMainButton(button: MainButton | null) {
  const inTelegram = useInTelegram()
  const click = useRef(button?.onClick)
  click.current = button?.onClick
  const text = button?.text ?? null
  const disabled = button?.disabled ?? true
  useEffect(() => {
    if (!inTelegram || text === null) return
    let app: WebApp | null = null
    let gone = false
    const onClick = () => click.current?.()
    void telegramWebApp().then((loaded) => {
      if (gone || !loaded) return
      app = loaded
      app.MainButton.setParams({ text, is_active: !disabled, is_visible: true })
      app.MainButton.onClick(onClick)
    })
    return () => {
      gone = true
      app?.MainButton.offClick(onClick)
      app?.MainButton.hide()
    }
  }, [inTelegram, text, disabled])
}
