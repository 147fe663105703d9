// Demo data that shows every screen: `npx tsx prisma/seed.ts` (DATABASE_URL must be set).
//
// Idempotent: users, bots and auctions are upserted by username / displayId, and each seeded
// auction's bids, prebids and bot assignments are replaced, so a re-run restores the demo to this
// state with all times re-anchored to now. Settings and BotSettings are only created when missing,
// so an admin's changes survive a re-run. Meant for development and demo databases.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import argon2 from 'argon2'
import sharp from 'sharp'
import { storeProductImage } from '../app/services/images/product-image.server.ts'
import { imageStoreOf } from '../app/services/images/store.server.ts'
import { parseImageSettings } from '../app/utils/env.server.ts'
import { formatDisplayId } from '../app/utils/display-id.ts'
import { syncDisplayNumbers } from '../app/utils/display-id.server.ts'
import {
  AuctionStatus,
  createPrismaClient,
  LedgerReason,
  Role,
  type Gender,
  type Prisma,
  type PrismaClient,
} from '../app/utils/db.server.ts'
import { MINOR_PER_MAJOR } from '../app/utils/money.ts'
import { slugify } from '../app/utils/slug.ts'
import { SEED_PICTURES } from './seed-pictures/index.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const som = (amount: number) => amount * MINOR_PER_MAJOR

type SeedUser = {
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

const USERS: SeedUser[] = [
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

const BOTS = [
  { username: 'bot_azamat_1', firstName: 'Азамат', lastName: 'Токтогулов' },
  { username: 'bot_aigerim_2', firstName: 'Айгерим', lastName: 'Садыкова' },
  { username: 'bot_bakyt_3', firstName: 'Бакыт', lastName: 'Осмонов' },
  { username: 'bot_jyldyz_4', firstName: 'Жылдыз', lastName: 'Мамытова' },
  { username: 'bot_dmitry_5', firstName: 'Дмитрий', lastName: 'Соколов' },
  { username: 'bot_elena_6', firstName: 'Елена', lastName: 'Иванова' },
] as const

/** A bidder: a user's username, or `bot:N` for BOTS[N]. */
type Bidder = string

type SeedAuction = {
  title: string
  description: string
  retailPriceSom: number
  category: string
  condition?: string
  featured?: boolean
  isBidPackage?: boolean
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

function repeat(pattern: Bidder[], times: number): Bidder[] {
  return Array.from({ length: times }, () => pattern).flat()
}

const AUCTIONS: SeedAuction[] = [
  // Finished within the last day.
  {
    title: 'Samsung Galaxy A55 8/256 ГБ',
    description:
      'Смартфон Samsung Galaxy A55 5G: экран Super AMOLED 6,6", 120 Гц, камера 50 Мп, ' +
      'защита IP67, аккумулятор 5000 мА·ч. Официальная гарантия 1 год.',
    retailPriceSom: 36_900,
    category: 'Смартфоны',
    status: AuctionStatus.finished,
    startIn: -2 * HOUR,
    lastEventIn: -1 * HOUR,
    bids: [...repeat(['aizada', 'bot:0', 'nurlan'], 6), 'aibek', 'nurlan'],
    bidSpacing: 7 * SECOND,
    bots: { 0: 20 },
  },
  {
    title: 'Портативная колонка JBL Flip 6',
    description:
      'Водонепроницаемая колонка JBL Flip 6 (IP67) с мощным басом и до 12 часов работы ' +
      'от аккумулятора. Цвет — чёрный.',
    retailPriceSom: 11_900,
    category: 'Аудио',
    status: AuctionStatus.finished,
    startIn: -5 * HOUR,
    lastEventIn: -3 * HOUR,
    bids: [...repeat(['aibek', 'aizada', 'demo'], 5), 'aibek'],
    bidSpacing: 6 * SECOND,
  },
  {
    title: 'Apple iPad 10.9 Wi-Fi 64 ГБ',
    description:
      'Планшет Apple iPad 10-го поколения: дисплей Liquid Retina 10,9", чип A14 Bionic, ' +
      'USB-C, Touch ID. Цвет — синий.',
    retailPriceSom: 38_900,
    category: 'Планшеты',
    status: AuctionStatus.finished,
    startIn: -8 * HOUR,
    lastEventIn: -6 * HOUR,
    bids: [...repeat(['demo', 'aizada', 'bot:1'], 7), 'demo', 'aizada'],
    bidSpacing: 5 * SECOND,
    bots: { 1: 10 },
  },
  {
    title: 'Робот-пылесос Xiaomi Robot Vacuum S20',
    description:
      'Робот-пылесос с влажной уборкой, лазерной навигацией LDS и управлением из приложения ' +
      'Mi Home. Мощность всасывания 5000 Па.',
    retailPriceSom: 24_500,
    category: 'Бытовая техника',
    status: AuctionStatus.finished,
    startIn: -12 * HOUR,
    lastEventIn: -10 * HOUR,
    bids: repeat(['aibek', 'demo'], 6),
    bidSpacing: 8 * SECOND,
  },
  {
    title: 'Игровая консоль Nintendo Switch OLED',
    description:
      'Nintendo Switch OLED с 7-дюймовым OLED-экраном, 64 ГБ памяти и улучшенным звуком. ' +
      'В комплекте док-станция и два контроллера Joy-Con.',
    retailPriceSom: 32_900,
    category: 'Игры и консоли',
    status: AuctionStatus.finished,
    startIn: -18 * HOUR,
    lastEventIn: -16 * HOUR,
    bids: [...repeat(['aizada', 'aibek', 'bot:2'], 8), 'aibek'],
    bidSpacing: 6 * SECOND,
    bots: { 2: 0 },
  },
  {
    title: 'Фен Dyson Supersonic HD07',
    description:
      'Фен Dyson Supersonic с интеллектуальным контролем температуры и пятью насадками. ' +
      'Аукцион завершился без ставок.',
    retailPriceSom: 49_900,
    category: 'Красота и здоровье',
    status: AuctionStatus.finished,
    startIn: -23 * HOUR,
    lastEventIn: -22 * HOUR,
    bids: [],
  },
  // Live now.
  {
    title: 'Наушники Apple AirPods Pro 2 (USB-C)',
    description:
      'Беспроводные наушники с активным шумоподавлением, адаптивным звуком и зарядным ' +
      'футляром MagSafe с разъёмом USB-C.',
    retailPriceSom: 24_900,
    category: 'Аудио',
    status: AuctionStatus.live,
    startIn: -25 * MINUTE,
    lastEventIn: -2 * SECOND,
    prebids: ['aibek'],
    bids: ['aibek', 'aizada', 'bot:0', 'demo', 'aibek', 'bot:1', 'aizada', 'demo', 'nurlan'],
    bidSpacing: 6 * SECOND,
    bots: { 0: 0, 1: 25 },
  },
  {
    title: 'Смартфон Xiaomi Redmi Note 14 Pro 8/256 ГБ',
    description:
      'Redmi Note 14 Pro: AMOLED-экран 6,67" 120 Гц, камера 200 Мп, быстрая зарядка 45 Вт ' +
      'и аккумулятор 5500 мА·ч.',
    retailPriceSom: 27_900,
    category: 'Смартфоны',
    status: AuctionStatus.live,
    startIn: -50 * MINUTE,
    lastEventIn: -4 * SECOND,
    bids: [...repeat(['demo', 'bot:2', 'aibek', 'bot:3'], 3), 'aizada'],
    bidSpacing: 5 * SECOND,
    bots: { 2: 0, 3: 40 },
  },
  {
    title: 'Умные часы Apple Watch Series 10 46 мм',
    description:
      'Apple Watch Series 10 с самым большим и ярким дисплеем, ЭКГ, датчиком кислорода в ' +
      'крови и отслеживанием сна. Алюминиевый корпус.',
    retailPriceSom: 44_900,
    category: 'Гаджеты',
    status: AuctionStatus.live,
    startIn: -10 * MINUTE,
    lastEventIn: -3 * SECOND,
    bids: ['nurlan', 'bot:4', 'aibek', 'bot:5', 'aizada', 'bot:4'],
    bidSpacing: 7 * SECOND,
    bots: { 4: 30, 5: 0 },
  },
  // Upcoming.
  {
    title: 'Apple iPhone 16 Pro Max 256 ГБ',
    description:
      'Флагманский iPhone 16 Pro Max: титановый корпус, дисплей 6,9", чип A18 Pro, камера ' +
      '48 Мп с 5-кратным оптическим зумом. Цвет — «пустынный титан».',
    retailPriceSom: 179_900,
    category: 'Смартфоны',
    featured: true,
    status: AuctionStatus.upcoming,
    startIn: 1 * DAY + 2 * HOUR,
    prebids: ['demo', 'aibek', 'aizada'],
  },
  {
    title: '50 ставок',
    description: 'Пакет из 50 ставок зачисляется на баланс победителя сразу после аукциона.',
    retailPriceSom: 1_000,
    category: 'Пакеты ставок',
    isBidPackage: true,
    status: AuctionStatus.upcoming,
    // Starts a few minutes after seeding, so a demo shows an auction going live.
    startIn: 3 * MINUTE,
  },
  {
    title: '100 ставок',
    description: 'Пакет из 100 ставок зачисляется на баланс победителя сразу после аукциона.',
    retailPriceSom: 2_000,
    category: 'Пакеты ставок',
    isBidPackage: true,
    status: AuctionStatus.upcoming,
    startIn: 5 * HOUR,
    prebids: ['aibek', 'nurlan'],
  },
  {
    title: '250 ставок',
    description: 'Пакет из 250 ставок зачисляется на баланс победителя сразу после аукциона.',
    retailPriceSom: 5_000,
    category: 'Пакеты ставок',
    isBidPackage: true,
    status: AuctionStatus.upcoming,
    startIn: 1 * DAY + 6 * HOUR,
  },
  {
    title: 'Samsung Galaxy S25 Ultra 12/256 ГБ',
    description:
      'Samsung Galaxy S25 Ultra со встроенным стилусом S Pen, камерой 200 Мп и процессором ' +
      'Snapdragon 8 Elite. Цвет — титановый серый.',
    retailPriceSom: 139_900,
    category: 'Смартфоны',
    status: AuctionStatus.upcoming,
    startIn: 2 * DAY,
  },
  {
    title: 'Ноутбук Apple MacBook Air 13 M3 8/256 ГБ',
    description:
      'Лёгкий и тихий MacBook Air на чипе M3: дисплей Liquid Retina 13,6", до 18 часов ' +
      'работы от аккумулятора, 8 ГБ памяти и SSD 256 ГБ.',
    retailPriceSom: 119_900,
    category: 'Ноутбуки',
    status: AuctionStatus.upcoming,
    startIn: 3 * DAY,
  },
  {
    title: 'Наушники Sony WH-1000XM5',
    description:
      'Полноразмерные беспроводные наушники Sony с лучшим в классе шумоподавлением и до 30 ' +
      'часов работы. Цвет — чёрный.',
    retailPriceSom: 32_900,
    category: 'Аудио',
    status: AuctionStatus.upcoming,
    startIn: 4 * DAY,
  },
  {
    title: 'Игровая консоль Sony PlayStation 5 Slim',
    description:
      'PlayStation 5 Slim с дисководом, SSD 1 ТБ и беспроводным контроллером DualSense. ' +
      'Поддержка игр в 4K и 120 кадров в секунду.',
    retailPriceSom: 54_900,
    category: 'Игры и консоли',
    status: AuctionStatus.upcoming,
    startIn: 5 * DAY,
  },
]

type Spend = {
  username: string
  at: Date
  reason: typeof LedgerReason.bid | typeof LedgerReason.prebid
  reference: string
  auctionId: string
}

async function upsertUsers(prisma: PrismaClient, now: number) {
  const ids = new Map<string, string>()
  for (const user of USERS) {
    const existing = await prisma.user.findUnique({
      where: { username: user.username },
      select: { passwordHash: true },
    })
    const keepHash =
      existing?.passwordHash && (await argon2.verify(existing.passwordHash, user.password))
    const passwordHash = keepHash
      ? existing.passwordHash
      : await argon2.hash(user.password, { type: argon2.argon2id })
    const data = {
      email: user.email,
      passwordHash,
      role: user.role,
      firstName: user.firstName,
      lastName: user.lastName,
      phone: user.phone,
      dateOfBirth: user.dateOfBirth ? new Date(`${user.dateOfBirth}T00:00:00Z`) : null,
      gender: user.gender,
      ipAddress: user.ipAddress,
      bidBalance: user.bidBalance,
      createdAt: new Date(now - user.registeredAgo),
    }
    const saved = await prisma.user.upsert({
      where: { username: user.username },
      create: { username: user.username, ...data },
      update: data,
      select: { id: true },
    })
    ids.set(user.username, saved.id)
  }
  return ids
}

async function upsertBots(prisma: PrismaClient) {
  const ids: string[] = []
  for (const bot of BOTS) {
    const saved = await prisma.bot.upsert({
      where: { username: bot.username },
      create: { ...bot, isActive: true },
      update: { firstName: bot.firstName, lastName: bot.lastName, isActive: true },
      select: { id: true },
    })
    ids.push(saved.id)
  }
  return ids
}

function botIndex(bidder: Bidder): number | null {
  return bidder.startsWith('bot:') ? Number(bidder.slice(4)) : null
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Seed data refers to an unknown ${what}`)
  return value
}

async function seedAuction(
  prisma: PrismaClient,
  seed: SeedAuction,
  index: number,
  ctx: {
    now: number
    userIds: Map<string, string>
    botIds: string[]
    spends: Spend[]
    /** Title -> the product picture's imageUrl. */
    pictures: Map<string, string>
  },
) {
  const displayId = formatDisplayId(index + 1)
  const startTime = new Date(ctx.now + seed.startIn)
  const bidders = seed.bids ?? []
  const spacing = seed.bidSpacing ?? 5 * SECOND
  const bidIncrement = 1
  const startingPrice = 0
  const isFinished = seed.status === AuctionStatus.finished
  const isLive = seed.status === AuctionStatus.live

  // Bids run up to the last event: a finished auction's timer ran out 10 s after its last bid.
  const lastBidAt =
    ctx.now + (seed.lastEventIn ?? 0) - (isFinished && bidders.length > 0 ? 10 * SECOND : 0)
  const bidTimes = bidders.map((_, i) => new Date(lastBidAt - (bidders.length - 1 - i) * spacing))
  const convertedPrebid = isLive ? seed.prebids?.[0] : undefined
  if (convertedPrebid) bidTimes[0] = startTime

  const lastBidder = bidders.at(-1)
  const winner = isFinished && lastBidder && botIndex(lastBidder) === null ? lastBidder : undefined
  const price = startingPrice + bidders.length * bidIncrement
  const prebidUsers = seed.status === AuctionStatus.upcoming ? (seed.prebids ?? []) : []

  const data = {
    slug: slugify(seed.title, displayId),
    title: seed.title,
    description: seed.description,
    imageUrl: ctx.pictures.get(seed.title) ?? null,
    retailPrice: som(seed.retailPriceSom),
    startingPrice,
    currentPrice: price,
    bidIncrement,
    estimatedValue: som(seed.retailPriceSom),
    condition: seed.condition ?? 'Новый',
    category: seed.category,
    featured: seed.featured ?? false,
    startTime,
    endTime: isFinished ? new Date(ctx.now + (seed.lastEventIn ?? 0)) : null,
    status: seed.status,
    isBidPackage: seed.isBidPackage ?? false,
    prebidsCount: prebidUsers.length + (convertedPrebid ? 1 : 0),
    totalBids: bidders.length,
    winnerId: winner ? required(ctx.userIds.get(winner), `user ${winner}`) : null,
    finalPrice: isFinished && bidders.length > 0 ? price : null,
    createdAt: new Date(Math.min(startTime.getTime(), ctx.now) - 3 * DAY),
  }

  return prisma.$transaction(async (tx) => {
    const auction = await tx.auction.upsert({
      where: { displayId },
      create: { displayId, ...data },
      update: data,
      select: { id: true },
    })
    const auctionId = auction.id
    await tx.bid.deleteMany({ where: { auctionId } })
    await tx.prebid.deleteMany({ where: { auctionId } })
    await tx.botAssignment.deleteMany({ where: { auctionId } })

    const bids: Prisma.BidCreateManyInput[] = bidders.map((bidder, i) => {
      const at = required(bidTimes[i], 'bid time')
      const bot = botIndex(bidder)
      const isPrebid = i === 0 && convertedPrebid !== undefined
      if (bot !== null) {
        return {
          auctionId,
          botId: required(ctx.botIds[bot], `bot ${bidder}`),
          isBot: true,
          botName: required(BOTS[bot], `bot ${bidder}`).username,
          amount: startingPrice + (i + 1) * bidIncrement,
          createdAt: at,
        }
      }
      if (!isPrebid) {
        ctx.spends.push({
          username: bidder,
          at,
          reason: LedgerReason.bid,
          reference: `seed:${bidder}:bid:${displayId}:${i + 1}`,
          auctionId,
        })
      }
      return {
        auctionId,
        userId: required(ctx.userIds.get(bidder), `user ${bidder}`),
        isPrebid,
        amount: startingPrice + (i + 1) * bidIncrement,
        createdAt: at,
      }
    })
    await tx.bid.createMany({ data: bids })

    const prebids: Prisma.PrebidCreateManyInput[] = []
    const placedBefore = (offset: number) =>
      new Date(Math.min(ctx.now, startTime.getTime()) - offset)
    for (const [i, username] of [
      ...(convertedPrebid ? [convertedPrebid] : []),
      ...prebidUsers,
    ].entries()) {
      const createdAt = placedBefore((i + 1) * 37 * MINUTE)
      prebids.push({
        auctionId,
        userId: required(ctx.userIds.get(username), `user ${username}`),
        createdAt,
        convertedAt: convertedPrebid ? startTime : null,
      })
      ctx.spends.push({
        username,
        at: createdAt,
        reason: LedgerReason.prebid,
        reference: `seed:${username}:prebid:${displayId}`,
        auctionId,
      })
    }
    await tx.prebid.createMany({ data: prebids })

    const assignments = Object.entries(seed.bots ?? {}).map(([bot, bidLimit]) => ({
      auctionId,
      botId: required(ctx.botIds[Number(bot)], `bot ${bot}`),
      bidLimit,
      currentBids: bidders.filter((bidder) => bidder === `bot:${bot}`).length,
      isActive: isLive,
      createdAt: new Date(startTime.getTime() - HOUR),
    }))
    await tx.botAssignment.createMany({ data: assignments })

    return { auctionId, bids: bids.length, prebids: prebids.length }
  })
}

// The ledger explains each balance: one seed grant, then one row per credit spent, in time order.
async function writeLedger(
  prisma: PrismaClient,
  now: number,
  userIds: Map<string, string>,
  spends: Spend[],
) {
  let rows = 0
  for (const user of USERS) {
    const userId = required(userIds.get(user.username), `user ${user.username}`)
    const own = spends
      .filter((spend) => spend.username === user.username)
      .sort((a, b) => a.at.getTime() - b.at.getTime())
    const registeredAt = new Date(now - user.registeredAgo)
    for (const spend of own) {
      if (spend.at < registeredAt) {
        throw new Error(`Seed data: ${user.username} spends a bid before registering`)
      }
    }
    let balance = user.bidBalance + own.length
    const entries: Prisma.BalanceLedgerCreateManyInput[] = [
      {
        userId,
        amount: balance,
        balanceAfter: balance,
        reason: LedgerReason.seed,
        reference: `seed:${user.username}`,
        createdAt: registeredAt,
      },
    ]
    for (const spend of own) {
      balance -= 1
      entries.push({
        userId,
        amount: -1,
        balanceAfter: balance,
        reason: spend.reason,
        reference: spend.reference,
        auctionId: spend.auctionId,
        createdAt: spend.at,
      })
    }
    await prisma.$transaction([
      prisma.balanceLedger.deleteMany({
        where: {
          OR: [
            { reference: `seed:${user.username}` },
            { reference: { startsWith: `seed:${user.username}:` } },
          ],
        },
      }),
      prisma.balanceLedger.createMany({ data: entries }),
    ])
    rows += entries.length
  }
  return rows
}

// Totals are counted from the database so they stay right whatever else the users have done.
async function updateUserTotals(prisma: PrismaClient, userIds: Map<string, string>) {
  for (const userId of userIds.values()) {
    const [bids, prebids, won] = await Promise.all([
      prisma.bid.count({ where: { userId, isPrebid: false } }),
      prisma.prebid.count({ where: { userId } }),
      prisma.auction.count({ where: { winnerId: userId, status: AuctionStatus.finished } }),
    ])
    await prisma.user.update({
      where: { id: userId },
      data: { totalBids: bids + prebids, totalSpent: bids + prebids, wonAuctions: won },
    })
  }
}

async function ensureSettings(prisma: PrismaClient) {
  await prisma.settings.upsert({
    where: { id: 1 },
    create: {
      id: 1,
      currency: 'сом',
      currencySymbol: 'сом',
      siteName: 'Аукцион KG',
      language: 'ru',
      headerTagline: 'Выигрывайте технику по цене от 1 тыйына',
      footerDescription:
        'Аукцион KG — пенни-аукционы электроники в Кыргызстане. Каждая ставка поднимает цену ' +
        'на 0,01 сом, а побеждает последняя ставка.',
      contactAddress: 'г. Бишкек, пр. Чуй, 135, офис 12',
      contactPhone: '+996 555 000 111',
      contactEmail: 'support@auction.example.kg',
      contactTelegram: 'auctionkg_support',
      discloseHouseBids: true,
    },
    update: {},
  })
  await prisma.botSettings.upsert({
    where: { id: 1 },
    create: { id: 1, enabled: true, minDelay: 2, maxDelay: 6, activeBots: 2 },
    update: {},
  })
}

/**
 * The products' pictures (prisma/seed-pictures, drawn for the demo) kept as product images, as an
 * admin's upload would be, in the image store (IMAGE_STORE): title -> imageUrl.
 */
async function keepPictures() {
  const store = imageStoreOf(parseImageSettings())
  const folder = path.join(import.meta.dirname, 'seed-pictures')
  const pictures = new Map<string, string>()
  for (const [title, file] of Object.entries(SEED_PICTURES)) {
    const png = await sharp(await readFile(path.join(folder, file)))
      .png()
      .toBuffer()
    pictures.set(title, (await storeProductImage(png, store)).imageUrl)
  }
  return pictures
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl) throw new Error('DATABASE_URL is not set')
  const prisma = createPrismaClient(databaseUrl)
  try {
    const now = Date.now()
    const userIds = await upsertUsers(prisma, now)
    const botIds = await upsertBots(prisma)
    const spends: Spend[] = []
    const pictures = await keepPictures()
    let bids = 0
    let prebids = 0
    for (const [index, seed] of AUCTIONS.entries()) {
      const result = await seedAuction(prisma, seed, index, {
        now,
        userIds,
        botIds,
        spends,
        pictures,
      })
      bids += result.bids
      prebids += result.prebids
    }
    await syncDisplayNumbers(prisma)
    const ledgerRows = await writeLedger(prisma, now, userIds, spends)
    await updateUserTotals(prisma, userIds)
    await ensureSettings(prisma)

    const byStatus = (status: AuctionStatus) => AUCTIONS.filter((a) => a.status === status).length
    console.log(
      [
        `Seeded ${USERS.length} users (admin / admin123; ` +
          `${USERS.filter((u) => u.role === Role.user)
            .map((u) => u.username)
            .join(', ')} / password123), ${BOTS.length} bots`,
        `${AUCTIONS.length} auctions: ${byStatus(AuctionStatus.live)} live, ` +
          `${byStatus(AuctionStatus.upcoming)} upcoming, ${byStatus(AuctionStatus.finished)} finished`,
        `${bids} bids, ${prebids} prebids, ${ledgerRows} ledger rows; settings ensured`,
      ].join('\n'),
    )
  } finally {
    await prisma.$disconnect()
  }
}

main().catch((error: unknown) => {
  console.error(`Seed failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
})
