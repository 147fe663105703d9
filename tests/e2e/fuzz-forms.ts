import { unique } from './api.ts'

// The page forms the page-action fuzz (fuzz-pages-*.e2e.ts) posts to, and what they are filled
// with: the tables of fuzz-visitor-actions.ts and fuzz-admin-actions.ts.

export type Who = 'anon' | 'user' | 'admin'
export type Fields = Record<string, string>
/**
 * One form of a page: where it posts, a well-formed body to start from, and what it stores when
 * it succeeds (counted to check that nothing else was stored).
 */
export type Form = { url: string; fields: () => Fields; stores?: 'auctions' | 'bots' | 'users' }

/** What a fuzz file made before its posts, for forms to name: people, auctions, a payment. */
export type Fixtures = {
  started: Date
  user: { cookie: string; id: string; name: string }
  victim: { id: string; name: string }
  admin: string
  auctions: {
    live: { id: string; slug: string }
    upcoming: { id: string; slug: string }
    edited: { id: string }
  }
  paymentId: string
  settingsBefore: Record<string, unknown>
}

/** Page actions (keyed by their file under app/routes/) and their forms. */
export type PageActions = Record<string, { admin?: boolean; forms: (f: Fixtures) => Form[] }>

/** The bid action's forms: without JavaScript (naming the page to come back to) and with it. */
export const bidForms = (f: Fixtures, url: string): Form[] => [
  { url, fields: () => ({ intent: 'bid', auctionId: f.auctions.live.id, redirectTo: '/' }) },
  {
    url,
    fields: () => ({
      intent: 'prebid',
      auctionId: f.auctions.upcoming.id,
      redirectTo: '/auctions',
    }),
  },
  { url, fields: () => ({ intent: 'bid', auctionId: f.auctions.live.id }) },
]

export const auctionFields = () => ({
  title: `Лот ${unique()}`,
  description: 'Описание',
  imageUrl: '/images/phone.jpg',
  retailPrice: '1500',
  startTime: '2099-01-01T10:00',
  condition: 'new',
  category: 'phones',
  estimatedValue: '1600',
  featured: 'on',
})

/** The admin's edit of the victim's account, well formed. */
export const victimEdit = (f: Fixtures) => ({
  intent: 'edit',
  id: f.victim.id,
  username: f.victim.name,
  email: `${f.victim.name}@mail.kg`,
  firstName: 'Жертва',
  lastName: '',
  phone: '',
  bidBalanceDelta: '+5',
  bidBalanceReason: 'Подарок',
  role: 'user',
})
