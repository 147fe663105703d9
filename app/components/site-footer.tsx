import { Form, Link } from '@remix-run/react'
import { BadgeCheck, Lock, ShieldCheck } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { useRootData } from '~/utils/hooks.ts'

const quickLinks = [
  { to: '/', key: 'nav.home' },
  { to: '/auctions', key: 'nav.auctions' },
  { to: '/how-it-works', key: 'nav.howItWorks' },
  { to: '/topup', key: 'nav.topup' },
] as const

const supportLinks = [
  { to: '/support', key: 'footer.links.support' },
  { to: '/auction-rules', key: 'footer.links.auctionRules' },
  { to: '/privacy-policy', key: 'footer.links.privacyPolicy' },
  { to: '/terms-of-service', key: 'footer.links.termsOfService' },
] as const

const badges = [
  { icon: ShieldCheck, key: 'footer.badges.adults' },
  { icon: Lock, key: 'footer.badges.securePayment' },
  { icon: BadgeCheck, key: 'footer.badges.fairPlay' },
] as const

const numberFormat = new Intl.NumberFormat('ru-RU')

/** A titled column of the footer's links (`children`: more items after them). */
function FooterLinks({
  id,
  title,
  links,
  children,
}: {
  id: string
  title: string
  links: ReadonlyArray<{ to: string; key: string }>
  children?: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className="font-semibold text-white">
        {title}
      </h2>
      <ul className="mt-2 space-y-1 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-slate-300 hover:text-white hover:underline">
              {t(link.key)}
            </Link>
          </li>
        ))}
        {children}
      </ul>
    </nav>
  )
}

export function SiteFooter() {
  const { t } = useTranslation()
  const { settings, stats, path } = useRootData()
  const contacts = [
    { label: t('footer.address'), value: settings.contactAddress },
    {
      label: t('footer.phone'),
      value: settings.contactPhone,
      href: `tel:${settings.contactPhone}`,
    },
    {
      label: t('footer.email'),
      value: settings.contactEmail,
      href: `mailto:${settings.contactEmail}`,
    },
  ].filter((contact) => contact.value)
  const figures = stats
    ? [
        { value: numberFormat.format(stats.users), label: t('footer.stats.users') },
        { value: numberFormat.format(stats.finishedAuctions), label: t('footer.stats.auctions') },
        { value: numberFormat.format(stats.bids), label: t('footer.stats.bids') },
        {
          value: stats.averageSavingPercent == null ? '—' : `${stats.averageSavingPercent}%`,
          label: t('footer.stats.saving'),
        },
      ]
    : []

  return (
    <footer className="mt-12 border-t border-slate-800 bg-slate-900 text-slate-200">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{settings.siteName}</p>
          <p className="mt-2 text-sm text-slate-300">
            {settings.footerDescription || t('footer.defaultDescription')}
          </p>
        </div>
        <FooterLinks id="footer-quick-links" title={t('footer.quickLinks')} links={quickLinks} />
        <FooterLinks
          id="footer-support-links"
          title={t('footer.supportTitle')}
          links={supportLinks}
        >
          <li>
            <Form method="post" action="/cookie-consent" reloadDocument>
              <input type="hidden" name="choice" value="reset" />
              <input type="hidden" name="redirectTo" value={path} />
              <button type="submit" className="text-slate-300 hover:text-white hover:underline">
                {t('footer.cookieSettings')}
              </button>
            </Form>
          </li>
        </FooterLinks>
        <div>
          <h2 className="font-semibold text-white">{t('footer.contacts')}</h2>
          {contacts.length ? (
            <dl className="mt-2 space-y-1 text-sm">
              {contacts.map((contact) => (
                <div key={contact.label}>
                  <dt className="sr-only">{contact.label}</dt>
                  <dd>
                    {contact.href ? (
                      <a
                        href={contact.href}
                        className="text-slate-300 hover:text-white hover:underline"
                      >
                        {contact.value}
                      </a>
                    ) : (
                      <span className="text-slate-300">{contact.value}</span>
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="mt-2 text-sm text-slate-400">{t('footer.noContacts')}</p>
          )}
        </div>
      </div>
      {figures.length ? (
        <div className="border-t border-slate-800">
          <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-4 px-4 py-6 text-center sm:grid-cols-4 sm:px-6">
            {figures.map((figure) => (
              <div key={figure.label}>
                <dt className="text-xs uppercase tracking-wide text-slate-400">{figure.label}</dt>
                <dd className="text-2xl font-bold text-white">{figure.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4 text-xs text-slate-400 sm:px-6">
          <p>
            {t('footer.copyright', { year: new Date().getFullYear(), siteName: settings.siteName })}
          </p>
          <ul className="flex flex-wrap gap-3" aria-label={t('footer.badgesLabel')}>
            {badges.map(({ icon: Icon, key }) => (
              <li key={key} className="flex items-center gap-1">
                <Icon aria-hidden className="h-4 w-4" />
                {t(key)}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  )
}
