import { Link } from '@remix-run/react'
import type { TFunction } from 'i18next'
import { ChevronDown, type LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Trans } from 'react-i18next'
import { useTranslation } from '~/i18n/use-translation.ts'
import { buttonClass } from '~/components/ui/button.tsx'

// Building blocks of the static pages (docs/rules.md#static-pages: how it works, support, rules, legal
// texts, welcome preview). Their texts live in the `pages` namespace; see
// docs/decisions/010-static-texts.md for the product rules they state.

export const PAGES_NS = 'pages'

/**
 * A list (or list of objects) from the translations. The length and shape come from the ru
 * source; locales.test.ts keeps the other languages in step.
 */
export function textList<T = string>(t: TFunction, key: string): T[] {
  const value: unknown = t(key, { returnObjects: true })
  return Array.isArray(value) ? (value as T[]) : []
}

const richComponents = {
  strong: <strong className="font-semibold text-slate-900" />,
  auctions: <Link to="/auctions" className="font-semibold text-amber-800 underline" />,
  topup: <Link to="/topup" className="font-semibold text-amber-800 underline" />,
  rules: <Link to="/auction-rules" className="font-semibold text-amber-800 underline" />,
  privacy: <Link to="/privacy-policy" className="font-semibold text-amber-800 underline" />,
  terms: <Link to="/terms-of-service" className="font-semibold text-amber-800 underline" />,
}

/** One translated text that may hold <strong> or a link to another page of the site. */
export function Rich({ k, values }: { k: string; values?: Record<string, string | number> }) {
  const { t } = useTranslation(PAGES_NS)
  return <Trans t={t} i18nKey={k} values={values} components={richComponents} />
}

export function PageHero({
  icon: Icon,
  title,
  lead,
  children,
}: {
  icon: LucideIcon
  title: string
  lead: ReactNode
  children?: ReactNode
}) {
  return (
    <header className="rounded-2xl border border-amber-200 bg-gradient-to-br from-amber-50 to-orange-50 p-5 sm:p-10">
      <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-amber-600 text-white">
        <Icon aria-hidden className="h-6 w-6" />
      </span>
      {/* Long words ("конфиденциальности", Georgian) must fit a 390 px phone without breaking. */}
      <h1 className="mt-4 text-2xl font-black text-slate-900 hyphens-auto [overflow-wrap:anywhere] sm:text-4xl">
        {title}
      </h1>
      <div className="mt-3 max-w-3xl text-lg text-slate-700">{lead}</div>
      {children ? <div className="mt-6 flex flex-wrap gap-3">{children}</div> : null}
    </header>
  )
}

export function PageSection({
  id,
  title,
  icon: Icon,
  children,
}: {
  id: string
  title: string
  icon?: LucideIcon
  children: ReactNode
}) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} className="scroll-mt-24">
      <h2 id={`${id}-title`} className="mb-4 flex items-center gap-2 text-2xl font-bold">
        {Icon ? <Icon aria-hidden className="h-6 w-6 shrink-0 text-amber-600" /> : null}
        {title}
      </h2>
      {children}
    </section>
  )
}

export function Card({ className = '', children }: { className?: string; children: ReactNode }) {
  return (
    <div className={`rounded-xl border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      {children}
    </div>
  )
}

export const primaryButton = buttonClass({ size: 'lg' })
export const secondaryButton = buttonClass({ variant: 'outline', size: 'lg' })

/** Questions and answers as native disclosures: they open and close without JavaScript. */
export function FaqList({ k }: { k: string }) {
  const { t } = useTranslation(PAGES_NS)
  const items = textList<{ question: string; answer: string }>(t, k)
  return (
    <div className="space-y-3">
      {items.map((item, index) => (
        <details
          key={item.question}
          className="group rounded-xl border border-slate-200 bg-white shadow-sm open:border-amber-300"
        >
          <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl p-4 font-semibold hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
            <span>{item.question}</span>
            <ChevronDown
              aria-hidden
              className="h-5 w-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180"
            />
          </summary>
          <div className="px-4 pb-4 text-slate-700">
            <Rich k={`${k}.${index}.answer`} />
          </div>
        </details>
      ))}
    </div>
  )
}

/** A bulleted list of translated texts (each may hold <strong> or a site link). */
export function TextList({ k, className = '' }: { k: string; className?: string }) {
  const { t } = useTranslation(PAGES_NS)
  const items = textList(t, k)
  return (
    <ul className={`list-disc space-y-2 pl-5 text-slate-700 marker:text-amber-600 ${className}`}>
      {items.map((item, index) => (
        <li key={item}>
          <Rich k={`${k}.${index}`} />
        </li>
      ))}
    </ul>
  )
}

export type Contact = { kind: 'email' | 'phone' | 'address'; value: string; href?: string }

/** The operator's contacts from the site settings; empty settings are left out. */
export function contactsFrom(settings: {
  contactEmail: string
  contactPhone: string
  contactAddress: string
}): Contact[] {
  const contacts: Contact[] = [
    { kind: 'email', value: settings.contactEmail, href: `mailto:${settings.contactEmail}` },
    {
      kind: 'phone',
      value: settings.contactPhone,
      href: `tel:${settings.contactPhone.replace(/[^\d+]/g, '')}`,
    },
    { kind: 'address', value: settings.contactAddress },
  ]
  return contacts.filter((contact) => contact.value.trim())
}

export function ContactList({ contacts }: { contacts: Contact[] }) {
  const { t } = useTranslation(PAGES_NS)
  if (contacts.length === 0) return <p className="text-slate-700">{t('shared.noContacts')}</p>
  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      {contacts.map((contact) => (
        <div key={contact.kind} className="rounded-lg bg-slate-50 p-3">
          <dt className="text-sm text-slate-600">{t(`shared.contact.${contact.kind}`)}</dt>
          <dd className="font-medium [overflow-wrap:anywhere]">
            {contact.href ? (
              <a href={contact.href} className="text-amber-800 underline">
                {contact.value}
              </a>
            ) : (
              contact.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

type LegalSection = { title: string; paragraphs?: string[]; items?: string[]; note?: string }

/**
 * A legal text (privacy policy, terms of service): a table of contents and numbered sections,
 * then the operator's contacts from the settings.
 */
export function LegalDocument({
  k,
  icon,
  siteName,
  contacts,
}: {
  k: 'privacy' | 'terms'
  icon: LucideIcon
  siteName: string
  contacts: Contact[]
}) {
  const { t } = useTranslation(PAGES_NS)
  const sections = textList<LegalSection>(t, `${k}.sections`)
  const values = { siteName }
  const contactsNumber = sections.length + 1
  return (
    <div className="space-y-8">
      <PageHero icon={icon} title={t(`${k}.title`)} lead={t(`${k}.lead`, values)}>
        <p className="text-sm text-slate-600">{t(`${k}.updated`)}</p>
      </PageHero>
      <nav aria-labelledby={`${k}-toc`}>
        <Card>
          <h2 id={`${k}-toc`} className="text-lg font-semibold">
            {t('shared.contents')}
          </h2>
          <ol className="mt-3 list-decimal gap-x-10 pl-7 text-slate-700 sm:columns-2">
            {sections.map((section, index) => (
              <li key={section.title} className="mb-1 break-inside-avoid">
                <a href={`#${k}-${index + 1}`} className="hover:text-amber-800 hover:underline">
                  {section.title}
                </a>
              </li>
            ))}
            <li className="mb-1 break-inside-avoid">
              <a href={`#${k}-${contactsNumber}`} className="hover:text-amber-800 hover:underline">
                {t('shared.contactsTitle')}
              </a>
            </li>
          </ol>
        </Card>
      </nav>
      <Card className="space-y-8 sm:p-8">
        {sections.map((section, index) => (
          <section
            key={section.title}
            id={`${k}-${index + 1}`}
            aria-labelledby={`${k}-${index + 1}-title`}
            className="scroll-mt-24"
          >
            <h2 id={`${k}-${index + 1}-title`} className="text-xl font-bold">
              {index + 1}. {section.title}
            </h2>
            <div className="mt-3 space-y-3 leading-relaxed text-slate-700">
              {(section.paragraphs ?? []).map((paragraph, p) => (
                <p key={paragraph}>
                  <Rich k={`${k}.sections.${index}.paragraphs.${p}`} values={values} />
                </p>
              ))}
              {section.items?.length ? (
                <ul className="list-disc space-y-2 pl-5 marker:text-amber-600">
                  {section.items.map((item, i) => (
                    <li key={item}>
                      <Rich k={`${k}.sections.${index}.items.${i}`} values={values} />
                    </li>
                  ))}
                </ul>
              ) : null}
              {section.note ? (
                <p>
                  <Rich k={`${k}.sections.${index}.note`} values={values} />
                </p>
              ) : null}
            </div>
          </section>
        ))}
        <section
          id={`${k}-${contactsNumber}`}
          aria-labelledby={`${k}-${contactsNumber}-title`}
          className="scroll-mt-24"
        >
          <h2 id={`${k}-${contactsNumber}-title`} className="text-xl font-bold">
            {contactsNumber}. {t('shared.contactsTitle')}
          </h2>
          <p className="mt-3 text-slate-700">{t(`${k}.contactsText`, values)}</p>
          <div className="mt-3">
            <ContactList contacts={contacts} />
          </div>
        </section>
      </Card>
    </div>
  )
}
