import { Form } from '@remix-run/react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Panel } from '~/components/ui/panel.tsx'

/**
 * "Log out on all devices": a plain form to /logout (app/routes/account/logout.tsx) that ends every
 * session of the account, this browser's too; works without JavaScript.
 */
export function LogoutEverywhere() {
  const { t } = useTranslation()
  return (
    <Panel
      id="sessions-title"
      heading={t('profile.sessions.title')}
      headingClassName="mb-2 text-xl font-semibold"
    >
      <p id="sessions-text" className="mb-4 text-sm text-slate-600">
        {t('profile.sessions.text')}
      </p>
      <Form method="post" action="/logout">
        <input type="hidden" name="scope" value="everywhere" />
        <button
          type="submit"
          aria-describedby="sessions-text"
          className="rounded-md border border-red-300 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
        >
          {t('profile.sessions.logoutEverywhere')}
        </button>
      </Form>
    </Panel>
  )
}
