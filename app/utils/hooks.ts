import { useRouteLoaderData } from '@remix-run/react'
import { createContext, useContext, useMemo, useSyncExternalStore } from 'react'
import type { RootData } from '~/types/root-data.ts'
import { formatMoney } from '~/utils/money.ts'

export function useRootData() {
  const data = useOptionalRootData()
  if (!data) throw new Error('root loader data is missing')
  return data
}

/**
 * A bid balance newer than the root's data, as the socket told it (after a bid, a top-up, an
 * admin's edit), for the user of that data: a bid does not read the page's data again.
 */
export type BalanceNews = { of: NonNullable<RootData['user']>; bidBalance: number }
export const BalanceNewsContext = createContext<BalanceNews | null>(null)

/**
 * Tells the header a bid balance the page learnt itself (a bid's or prebid's answer), so that it
 * shows even when the socket is away.
 */
export const ReportBalanceContext = createContext<(bidBalance: number) => void>(() => undefined)
export const useReportBalance = () => useContext(ReportBalanceContext)

/** The root's data, with the newest bid balance the socket told of. */
export function useOptionalRootData() {
  const data = useRouteLoaderData<RootData>('root')
  const news = useContext(BalanceNewsContext)
  return useMemo(() => {
    const user = data?.user
    if (!data || !user || !news || news.of !== user || news.bidBalance === user.bidBalance)
      return data
    return { ...data, user: { ...user, bidBalance: news.bidBalance } }
  }, [data, news])
}

export function useOptionalUser() {
  return useOptionalRootData()?.user ?? null
}

export function useSettings() {
  return useRootData().settings
}

/** Formats minor units with the site's currency symbol (docs/rules.md#money: ru-RU, two decimals). */
export function useFormatMoney() {
  const symbol = useOptionalRootData()?.settings.currencySymbol ?? 'сом'
  return (minor: number) => formatMoney(minor, symbol)
}

const subscribeToNothing = () => () => undefined
/**
 * False during the server render and while the page hydrates (also for a part that hydrates
 * later, such as a lazily loaded component), true after it and on every render in the browser.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  )
}
