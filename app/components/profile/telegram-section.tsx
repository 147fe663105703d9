import { Form } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Panel } from '~/components/ui/panel.tsx'
import { Button } from '~/components/ui/button.tsx'
import type { TelegramStatus } from '~/models/telegram-link.server.ts'

export const TELEGRAM_NS = 'telegram'

/**
 * The profile's Telegram section (docs/rules.md#telegram): a plain form that answers with the
 * bot's one-time t.me link, or unlinks the chat; the verified phone. Shown only when the site
 * has a bot (`telegram` null otherwise). Works without JavaScript.
 */
export function TelegramSection({ telegram }: { telegram: TelegramStatus | null }) {
  const { t } = useTranslation(TELEGRAM_NS)
  if (!telegram) return null
  return (
    <Panel
      id="telegram-title"
      heading={t('profile.title')}
      headingClassName="mb-2 text-xl font-semibold"
    >
      {telegram.linked ? (
        <Form
          method="post"
          action="/profile/telegram"
          className="mb-4 flex flex-wrap items-center gap-3"
        >
          <p className="text-sm text-slate-700">{t('profile.linked')}</p>
          <Button name="intent" value="unlink" variant="outline" size="compact">
            {t('profile.unlink')}
          </Button>
        </Form>
      ) : (
        <Form method="post" action="/profile/telegram" reloadDocument className="mb-4 space-y-2">
          <p className="text-sm text-slate-700">{t('profile.intro')}</p>
          <button
            type="submit"
            name="intent"
            value="link"
            aria-describedby="telegram-link-hint"
            className="rounded-md bg-sky-700 px-4 py-2 text-sm font-semibold text-white hover:bg-sky-800"
          >
            {t('profile.link')}
          </button>
          <p id="telegram-link-hint" className="text-xs text-slate-600">
            {t('profile.linkHint')}
          </p>
        </Form>
      )}
      <h3 className="text-sm font-semibold text-slate-900">{t('profile.phone')}</h3>
      <p className="text-sm text-slate-700" data-testid="verified-phone">
        {telegram.verifiedPhone
          ? t('profile.phoneVerified', { phone: telegram.verifiedPhone })
          : t('profile.phoneMissing')}
      </p>
      {telegram.freeBidsOnPhone ? (
        <p className="mt-1 text-sm text-amber-800">{t('profile.freeBidsWaiting')}</p>
      ) : null}
    </Panel>
  )
}
