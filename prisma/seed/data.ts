// The demo's people and the shapes of its data: prisma/seed.ts writes them.
import {
  type AuctionStatus,
  type LedgerReason,
  Role,
  type Gender,
} from '../../app/utils/db.server.ts'
import { MINOR_PER_MAJOR } from '../../app/utils/money.ts'

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

export const som = (amount: number) => amount * MINOR_PER_MAJOR

export type SeedUser = {
  username: string
  password: string
  role: Role
  email: string
  firstName: string | null
  lastName: string | null
  phone: string | null
  dateOfBirth: string | null
  gender: Gender | null
  /** The bid balance after all the seeded bids and prebids. */
  bidBalance: number
  registeredAgo: number
  ipAddress: string | null
}

export const USERS: SeedUser[] = [
  {
    username: 'admin',
    password: 'admin123',
    role: Role.admin,
    email: 'admin@admin.local',
    firstName: 'Администратор',
    lastName: 'Системы',
    phone: null,
    dateOfBirth: null,
    gender: null,
    bidBalance: 1000,
    registeredAgo: 90 * DAY,
    ipAddress: null,
  },
  {
    username: 'aibek',
    password: 'password123',
    role: Role.user,
    email: 'aibek@example.com',
    firstName: 'Айбек',
    lastName: 'Жумабеков',
    phone: '+996555123456',
    dateOfBirth: '1992-04-15',
    gender: 'male',
    bidBalance: 120,
    registeredAgo: 60 * DAY,
    ipAddress: '212.42.101.17',
  },
  {
    username: 'aizada',
    password: 'password123',
    role: Role.user,
    email: 'aizada@example.com',
    firstName: 'Айзада',
    lastName: 'Касымова',
    phone: '+996700987654',
    dateOfBirth: '1998-09-03',
    gender: 'female',
    bidBalance: 45,
    registeredAgo: 30 * DAY,
    ipAddress: '176.123.240.8',
  },
  {
    // Registered today, so the admin's "registered today" card is not empty.
    username: 'nurlan',
    password: 'password123',
    role: Role.user,
    email: 'nurlan@example.com',
    firstName: 'Нурлан',
    lastName: 'Абдыраев',
    phone: null,
    dateOfBirth: null,
    gender: null,
    bidBalance: 5,
    registeredAgo: 5 * HOUR,
    ipAddress: '92.62.72.201',
  },
  {
    username: 'demo',
    password: 'password123',
    role: Role.user,
    email: 'demo@example.com',
    firstName: 'Демо',
    lastName: 'Пользователь',
    phone: '+996770111222',
    dateOfBirth: '1995-01-20',
    gender: 'other',
    bidBalance: 250,
    registeredAgo: 14 * DAY,
    ipAddress: '127.0.0.1',
  },
]

export const BOTS = [
  { username: 'bot_azamat_1', firstName: 'Азамат', lastName: 'Токтогулов' },
  { username: 'bot_aigerim_2', firstName: 'Айгерим', lastName: 'Садыкова' },
  { username: 'bot_bakyt_3', firstName: 'Бакыт', lastName: 'Осмонов' },
  { username: 'bot_jyldyz_4', firstName: 'Жылдыз', lastName: 'Мамытова' },
  { username: 'bot_dmitry_5', firstName: 'Дмитрий', lastName: 'Соколов' },
  { username: 'bot_elena_6', firstName: 'Елена', lastName: 'Иванова' },
] as const

/** A bidder: a user's username, or `bot:N` for BOTS[N]. */
export type Bidder = string

export type SeedAuction = {
  title: string
  description: string
  retailPriceSom: number
  category: string
  condition?: string
  featured?: boolean
  isBidPackage?: boolean
  /** A bid package's bids (docs/rules.md#bid-package-auctions); else what its retail price buys. */
  packageBids?: number
  status: AuctionStatus
  /** Offset of startTime from now (negative = in the past). */
  startIn: number
  /** Finished: offset of endTime from now. Live: offset of the last bid. */
  lastEventIn?: number
  /** Bidders in bid order; the last one of a finished auction wins. */
  bids?: Bidder[]
  bidSpacing?: number
  /** Upcoming: users holding a prebid. Live: a user whose prebid became the first bid. */
  prebids?: string[]
  /** Bot index -> bidLimit (0 = unlimited). */
  bots?: Record<number, number>
}

export type Spend = {
  username: string
  at: Date
  reason: typeof LedgerReason.bid | typeof LedgerReason.prebid
  reference: string
  auctionId: string
}

export function botIndex(bidder: Bidder): number | null {
  return bidder.startsWith('bot:') ? Number(bidder.slice(4)) : null
}

export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Seed data refers to an unknown ${what}`)
  return value
}
