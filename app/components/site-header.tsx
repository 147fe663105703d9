import { Form, Link, NavLink, useLocation } from '@remix-run/react'
import { ChevronDown, Gavel, Menu, ShieldCheck, Ticket, Trophy, User, X } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { LanguageSwitcher } from '~/components/language-switcher.tsx'
import { LoginDialog } from '~/components/login-dialog.tsx'
import { useRootData } from '~/utils/hooks.ts'

const mainNav = [
  { to: '/', key: 'nav.home', end: true },
  { to: '/auctions', key: 'nav.auctions' },
  { to: '/how-it-works', key: 'nav.howItWorks' },
  { to: '/topup', key: 'nav.topup' },
] as const

const userNav = [
  { to: '/profile', key: 'nav.profile' },
  { to: '/bid-history', key: 'nav.bidHistory' },
] as const

function navClass({ isActive }: { isActive: boolean }) {
  return `whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium ${
    isActive ? 'bg-amber-100 text-amber-900' : 'text-slate-700 hover:bg-slate-100'
  }`
}

function AdminLink() {
  const { t } = useTranslation()
  return (
    <NavLink to="/admin" className={navClass}>
      <ShieldCheck aria-hidden className="mr-1 inline h-4 w-4" />
      {t('nav.admin')}
    </NavLink>
  )
}

function LogoutForm({ className = '' }: { className?: string }) {
  const { t } = useTranslation()
  return (
    <Form method="post" action="/logout" className={className}>
      <button
        type="submit"
        className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
      >
        {t('nav.logout')}
      </button>
    </Form>
  )
}

/** After logging in from the header, come back to the page it was opened on. */
function loginRedirect(path: string) {
  return path.startsWith('/login') ? '/' : path
}

export function SiteHeader() {
  const { t } = useTranslation()
  const { user, settings, path, telegram } = useRootData()
  // Inside Telegram its own bar names the site: no sticky brand row, the bid balance in reach.
  const balance = user ? (
    <Link
      to="/topup"
      className="flex items-center gap-1 whitespace-nowrap rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900"
      title={t('header.bidBalanceTitle')}
    >
      <Ticket aria-hidden className="h-4 w-4" />
      <span>{t('header.bidBalance', { count: user.bidBalance })}</span>
    </Link>
  ) : null
  return (
    <header
      className={
        telegram
          ? 'relative z-30 border-b border-slate-200 bg-white'
          : 'sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur'
      }
    >
      <div
        className={`mx-auto flex max-w-6xl items-center gap-3 px-4 sm:px-6 ${telegram ? 'py-1' : 'py-3'}`}
      >
        {telegram ? (
          <div className="xl:hidden">{balance}</div>
        ) : (
          <BrandLink siteName={settings.siteName} tagline={settings.headerTagline} />
        )}
        <nav aria-label={t('nav.main')} className="ml-4 hidden items-center gap-1 xl:flex">
          {mainNav.map((item) => (
            <NavLink key={item.to} to={item.to} end={'end' in item} className={navClass}>
              {t(item.key)}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto hidden items-center gap-2 xl:flex">
          <LanguageSwitcher />
          {user ? (
            <>
              {balance}
              <UserMenu username={user.username} isAdmin={user.role === 'admin'} />
            </>
          ) : (
            <LoginDialog
              redirectTo={loginRedirect(path)}
              className="rounded-md bg-amber-700 px-4 py-2 text-sm font-semibold text-white hover:bg-amber-800"
            />
          )}
        </div>
        <MobileDrawer />
      </div>
    </header>
  )
}

function BrandLink({ siteName, tagline }: { siteName: string; tagline: string }) {
  return (
    <Link to="/" className="flex min-w-0 shrink-0 items-center gap-2" aria-label={siteName}>
      <Gavel aria-hidden className="h-7 w-7 shrink-0 text-amber-600" />
      <span className="min-w-0">
        <span className="block truncate text-lg font-bold leading-tight">{siteName}</span>
        {tagline ? (
          <span className="hidden truncate text-xs text-slate-600 sm:block xl:hidden 2xl:block">
            {tagline}
          </span>
        ) : null}
      </span>
    </Link>
  )
}

/**
 * A native disclosure (works without JavaScript); with it, it also closes after a client-side
 * navigation, on Escape and on a click outside.
 */
function useDisclosure() {
  const details = useRef<HTMLDetailsElement>(null)
  const location = useLocation()
  useEffect(() => {
    if (details.current) details.current.open = false
  }, [location.key])
  useEffect(() => {
    const close = (event: Event) => {
      const element = details.current
      if (!element?.open) return
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return
        element.open = false
        element.querySelector('summary')?.focus()
      } else if (!element.contains(event.target as Node)) element.open = false
    }
    document.addEventListener('click', close)
    document.addEventListener('keydown', close)
    return () => {
      document.removeEventListener('click', close)
      document.removeEventListener('keydown', close)
    }
  }, [])
  return details
}

/** The signed-in user's menu on wide screens: own pages, the admin panel, logout. */
function UserMenu({ username, isAdmin }: { username: string; isAdmin: boolean }) {
  const { t } = useTranslation()
  const details = useDisclosure()
  return (
    <details ref={details} className="relative">
      <summary
        className="flex cursor-pointer list-none items-center gap-1 rounded-md px-2 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
        aria-label={t('nav.userMenu', { username })}
      >
        <User aria-hidden className="h-4 w-4" />
        {username}
        <ChevronDown aria-hidden className="h-4 w-4" />
      </summary>
      <div className="absolute right-0 top-full mt-1 w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
        <nav aria-label={t('nav.account')} className="flex flex-col">
          {userNav.map((item) => (
            <NavLink key={item.to} to={item.to} className={navClass}>
              {t(item.key)}
            </NavLink>
          ))}
          {isAdmin ? <AdminLink /> : null}
        </nav>
        <LogoutForm className="mt-1 border-t border-slate-200 pt-1 [&>button]:w-full [&>button]:text-left" />
      </div>
    </details>
  )
}

/**
 * The mobile navigation is a native disclosure, so it opens and closes without JavaScript and
 * keeps the focus order of the page.
 */
function MobileDrawer() {
  const { t } = useTranslation()
  const { user, path } = useRootData()
  const links = user ? [...mainNav, ...userNav] : mainNav
  const details = useDisclosure()
  return (
    <details ref={details} className="group ml-auto xl:hidden">
      <summary
        className="flex cursor-pointer list-none items-center rounded-md p-2 text-slate-800 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
        aria-label={t('nav.menu')}
      >
        <Menu aria-hidden className="h-6 w-6 group-open:hidden" />
        <X aria-hidden className="hidden h-6 w-6 group-open:block" />
      </summary>
      <div className="absolute inset-x-0 top-full max-h-[calc(100vh-4rem)] overflow-y-auto border-b border-slate-200 bg-white px-4 pb-6 pt-2 shadow-lg">
        {user ? (
          <div className="mb-3 rounded-lg bg-slate-50 p-3">
            <p className="font-semibold">{user.username}</p>
            <div className="mt-2 grid grid-cols-2 gap-2 text-sm">
              <div className="rounded-md bg-white p-2">
                <Trophy aria-hidden className="mb-1 h-4 w-4 text-amber-600" />
                <span className="block text-lg font-bold">{user.wonAuctions}</span>
                <span className="text-slate-600">{t('header.wonTile')}</span>
              </div>
              <div className="rounded-md bg-white p-2">
                <Ticket aria-hidden className="mb-1 h-4 w-4 text-amber-600" />
                <span className="block text-lg font-bold">{user.bidBalance}</span>
                <span className="text-slate-600">{t('header.bidsTile')}</span>
              </div>
            </div>
          </div>
        ) : null}
        <nav aria-label={t('nav.mobile')} className="flex flex-col gap-1">
          {links.map((item) => (
            <NavLink key={item.to} to={item.to} end={'end' in item} className={navClass}>
              {t(item.key)}
            </NavLink>
          ))}
          {user?.role === 'admin' ? <AdminLink /> : null}
        </nav>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-3">
          <LanguageSwitcher />
          {user ? (
            <LogoutForm />
          ) : (
            <LoginDialog
              redirectTo={loginRedirect(path)}
              className="rounded-md bg-amber-700 px-4 py-2 text-sm font-semibold text-white"
            />
          )}
        </div>
      </div>
    </details>
  )
}
