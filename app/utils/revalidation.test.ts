import { describe, expect, test } from 'vitest'
import { BID_ACTION, revalidateUnlessBid, WATCH_ACTION } from './revalidation.ts'

// What a page reads again after a form is sent with JavaScript (docs/rules.md#bidding): not its
// data after a bid or a watch toggle, its data after a prebid and anything else.
const form = (entries: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(entries)) data.set(name, value)
  return data
}

const decide = (formAction: string | undefined, formData: FormData | undefined) =>
  revalidateUnlessBid({
    formAction,
    formData,
    formMethod: formAction ? 'POST' : undefined,
    defaultShouldRevalidate: true,
    currentUrl: new URL('http://site.test/'),
    nextUrl: new URL('http://site.test/'),
    currentParams: {},
    nextParams: {},
  })

describe('revalidateUnlessBid', () => {
  test('a bid reads nothing again', () => {
    expect(decide(BID_ACTION, form({ intent: 'bid', auctionId: 'a1' }))).toBe(false)
  })
  test('a watch toggle reads nothing again', () => {
    expect(decide(WATCH_ACTION, form({ watching: '1', auctionId: 'a1' }))).toBe(false)
  })
  test('a prebid, another action and a revalidation read again', () => {
    expect(decide(BID_ACTION, form({ intent: 'prebid', auctionId: 'a1' }))).toBe(true)
    expect(decide('/login', form({ username: 'a' }))).toBe(true)
    expect(decide(undefined, undefined)).toBe(true)
  })
})
