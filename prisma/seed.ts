// Demo data that shows every screen: `npx tsx prisma/seed.ts` (DATABASE_URL must be set).
//
// Idempotent: users, bots and auctions are upserted by username / displayId, and each seeded
// auction's bids, prebids and bot assignments are replaced, so a re-run restores the demo to this
// state with all times re-anchored to now. Settings and BotSettings are only created when missing,
// so an admin's changes survive a re-run. Meant for development and demo databases.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { storeProductImage } from '../app/services/images/product-image.server.ts'
import { imageStoreOf } from '../app/services/images/store.server.ts'
import { parseImageSettings } from '../app/utils/env.server.ts'
import { syncDisplayNumbers } from '../app/utils/display-id.server.ts'
import {
  AuctionStatus,
  createPrismaClient,
  Role,
  type PrismaClient,
} from '../app/utils/db.server.ts'
import { SEED_PICTURES } from './seed-pictures/index.ts'
import { updateUserTotals, upsertBots, upsertUsers, writeLedger } from './seed/accounts.ts'
import { seedAuction } from './seed/auction.ts'
import { AUCTIONS } from './seed/auctions.ts'
import { BOTS, USERS, type Spend } from './seed/data.ts'

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
