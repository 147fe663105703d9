import { useRouteLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { loader as rootLoader } from '~/root.tsx'
import { formatMoney } from '~/utils/money.ts'

export function useRootData() {
  const data = useRouteLoaderData<typeof rootLoader>('root')
  if (!data) throw new Error('root loader data is missing')
  return data
}

export function useOptionalRootData() {
  return useRouteLoaderData<typeof rootLoader>('root')
}

export function useOptionalUser() {
  return useOptionalRootData()?.user ?? null
}

export function useSettings() {
  return useRootData().settings
}

/** Formats minor units with the site's currency symbol (SPEC.md: ru-RU, two decimals). */
export function useFormatMoney() {
  const symbol = useOptionalRootData()?.settings.currencySymbol ?? 'сом'
  return (minor: number) => formatMoney(minor, symbol)
}

/** False during the server render and the first client render, true once hydrated. */
let hydrated = false
export function useHydrated() {
  const [isHydrated, setHydrated] = useState(hydrated)
  useEffect(() => {
    hydrated = true
    setHydrated(true)
  }, [])
  return isHydrated
}
