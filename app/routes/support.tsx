import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { CircleHelp, Clock, LifeBuoy, Mail, MessageCircle, Send } from 'lucide-react'
import { useTranslation } from '~/i18n/use-translation.ts'
import {
  Card,
  FaqList,
  PAGES_NS,
  PageHero,
  PageSection,
  Rich,
  TextList,
} from '~/components/static-page.tsx'
import { getSettings } from '~/models/settings.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'

type Channel = { kind: 'email' | 'whatsapp' | 'telegram'; value: string; href: string }

// docs/rules.md#static-pages: the channels are the site settings' contacts; a channel whose
// setting is empty is not offered.
export async function loader({ request }: LoaderFunctionArgs) {
  const [t, settings] = await Promise.all([getFixedT(request, PAGES_NS), getSettings()])
  const email = settings.contactEmail.trim()
  const phoneDigits = settings.contactPhone.replace(/\D/g, '')
  // Accepts "name", "@name" or a t.me link in the setting.
  const telegram = settings.contactTelegram
    .trim()
    .replace(/^(https?:\/\/)?(t\.me|telegram\.me)\//i, '')
    .replace(/^@/, '')
  const channels: Channel[] = []
  if (email) channels.push({ kind: 'email', value: email, href: `mailto:${email}` })
  if (phoneDigits)
    channels.push({
      kind: 'whatsapp',
      value: settings.contactPhone.trim(),
      href: `https://wa.me/${phoneDigits}`,
    })
  if (telegram)
    channels.push({
      kind: 'telegram',
      value: `@${telegram}`,
      href: `https://t.me/${encodeURIComponent(telegram)}`,
    })
  return { title: t('support.title'), channels }
}

const channelIcons = { email: Mail, whatsapp: MessageCircle, telegram: Send } as const
const hours = ['weekdays', 'saturday', 'sunday'] as const

export default function SupportRoute() {
  const { t } = useTranslation(PAGES_NS)
  const { channels } = useLoaderData<typeof loader>()
  return (
    <div className="space-y-12">
      <PageHero icon={LifeBuoy} title={t('support.title')} lead={t('support.lead')} />

      <PageSection id="channels" title={t('support.channelsTitle')}>
        {channels.length === 0 ? (
          <Card>
            <p className="text-slate-700">{t('shared.noContacts')}</p>
          </Card>
        ) : (
          <ul className="grid gap-4 md:grid-cols-3">
            {channels.map((channel) => {
              const Icon = channelIcons[channel.kind]
              const external = channel.kind !== 'email'
              return (
                <li key={channel.kind}>
                  <Card className="flex h-full flex-col">
                    <Icon aria-hidden className="h-7 w-7 text-amber-600" />
                    <h3 className="mt-3 text-lg font-semibold">
                      {t(`support.channels.${channel.kind}.title`)}
                    </h3>
                    <p className="mt-1 flex-1 text-slate-700">
                      {t(`support.channels.${channel.kind}.text`)}
                    </p>
                    <a
                      href={channel.href}
                      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                      className="mt-4 inline-block font-semibold text-amber-800 underline [overflow-wrap:anywhere]"
                    >
                      {channel.value}
                      {external ? <span className="sr-only"> {t('shared.newTab')}</span> : null}
                    </a>
                  </Card>
                </li>
              )
            })}
          </ul>
        )}
      </PageSection>

      <PageSection id="hours" title={t('support.hoursTitle')} icon={Clock}>
        <Card className="space-y-4">
          <dl className="divide-y divide-slate-100 sm:max-w-md">
            {hours.map((day) => (
              <div key={day} className="grid grid-cols-[1fr_auto] gap-x-4 py-2">
                <dt className="text-slate-700">{t(`support.hours.${day}.days`)}</dt>
                <dd className="text-right font-semibold tabular-nums">
                  {t(`support.hours.${day}.time`)}
                </dd>
              </div>
            ))}
          </dl>
          <p className="text-sm text-slate-600">{t('support.hoursNote')}</p>
          <p className="rounded-lg bg-amber-50 p-3 text-slate-800">
            <Rich k="support.emailPromise" />
          </p>
        </Card>
      </PageSection>

      <PageSection id="before-writing" title={t('support.beforeTitle')}>
        <Card>
          <TextList k="support.before" />
        </Card>
      </PageSection>

      <PageSection id="faq" title={t('shared.faqTitle')} icon={CircleHelp}>
        <FaqList k="support.faq" />
      </PageSection>
    </div>
  )
}

export { clientLoader, ErrorBoundary, handle, headers, meta } from '~/components/static-route.ts'
