import { refundHolds, waitForOutbox, type Engine } from '../../engine/index.ts'
import { getAuctionById } from '~/models/auction-view.server.ts'
import { assertAuctionDeletable, deleteWithUnpaidOrders } from '~/models/money-records.server.ts'
import { packageBidsFor } from '~/utils/bid-packages.ts'
import { getPrisma, isUniqueViolation } from '~/utils/db.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { formatDisplayId } from '~/utils/display-id.ts'
import { nextDisplayNumber } from '~/utils/display-id.server.ts'
import { slugify } from '~/utils/slug.ts'
import type { AuctionCreateInput, AuctionUpdateInput } from '~/validation/admin-auctions.ts'

// What an admin does to auctions (docs/rules.md#admin-dashboard). Every change
// goes to Postgres and then to the engine, so the live state in Redis follows at once.

/** A start this far in the past still counts as "now" (the form's minute precision). */
const START_GRACE_MS = 60_000

/** How long a delete waits for the outbox to write what Redis held (it writes within 0.1 s). */
const OUTBOX_WAIT_MS = 5_000

/**
 * How many bids a bid-package auction holds: as given, else what its retail price buys
 * (docs/rules.md#bid-package-auctions); null for an item, which may not be given one.
 */
function packageBidsColumn(input: AuctionUpdateInput, isBidPackage: boolean) {
  if (!isBidPackage) {
    if (input.packageBids !== undefined) throw new DomainError(400, 'errors.notBidPackage')
    return null
  }
  return input.packageBids ?? packageBidsFor(input.retailPrice)
}

/** The columns an admin's auction form sets, on creation and on every edit; the slug follows the title. */
function formColumns(input: AuctionUpdateInput, displayId: string, isBidPackage: boolean) {
  return {
    slug: slugify(input.title, displayId),
    title: input.title,
    description: input.description ?? '',
    imageUrl: input.imageUrl,
    retailPrice: input.retailPrice,
    estimatedValue: input.estimatedValue ?? null,
    condition: input.condition,
    category: input.category,
    featured: input.featured,
    startTime: input.startTime,
    packageBids: packageBidsColumn(input, isBidPackage),
  }
}

/**
 * The fair-play columns (docs/rules.md#fair-play-auctions) an edit changes: only those it sends
 * with a value other than the auction's own. Nothing, when it leaves both out.
 */
function fairPlayChanges(
  input: AuctionUpdateInput,
  row: { beginnerOnly: boolean; lockAfterMinutes: number | null },
) {
  const changes: { beginnerOnly?: boolean; lockAfterMinutes?: number | null } = {}
  if (input.beginnerOnly !== undefined && input.beginnerOnly !== row.beginnerOnly)
    changes.beginnerOnly = input.beginnerOnly
  if (input.lockAfterMinutes !== undefined && input.lockAfterMinutes !== row.lockAfterMinutes)
    changes.lockAfterMinutes = input.lockAfterMinutes
  return changes
}

export async function createAuction(engine: Engine, input: AuctionCreateInput) {
  if (input.startTime.getTime() < Date.now() - START_GRACE_MS)
    throw new DomainError(400, 'errors.startInPast')
  // The sequence never hands a number out twice; a number already taken by a row written with a
  // fixed id (imports) is refused by the unique index and the next one is tried.
  for (let attempt = 0; ; attempt++) {
    const displayId = formatDisplayId(await nextDisplayNumber(getPrisma()))
    try {
      const row = await getPrisma().auction.create({
        data: {
          displayId,
          ...formColumns(input, displayId, input.isBidPackage),
          isBidPackage: input.isBidPackage,
          beginnerOnly: input.beginnerOnly ?? false,
          lockAfterMinutes: input.lockAfterMinutes ?? null,
        },
        select: { id: true },
      })
      await engine.loadAuction(row.id)
      return (await getAuctionById(engine, row.id))!
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error
    }
  }
}

/**
 * Edits an auction that has not finished. Its start and its fair-play settings (beginners only,
 * closing to new bidders) can change only while it has not started: the bid engine takes them
 * when the auction goes live. The slug follows the title (old links still lead to it through
 * the lot number).
 */
export async function updateAuction(engine: Engine, id: string, input: AuctionUpdateInput) {
  const prisma = getPrisma()
  const row = await prisma.auction.findUnique({
    where: { id },
    select: {
      id: true,
      displayId: true,
      status: true,
      startTime: true,
      isBidPackage: true,
      beginnerOnly: true,
      lockAfterMinutes: true,
    },
  })
  if (!row) throw new DomainError(404, 'errors.auctionNotFound')
  const state = await engine.getState(id)
  const status = state?.status ?? row.status
  if (status === 'finished') throw new DomainError(409, 'errors.auctionFinished')
  const moved = input.startTime.getTime() !== row.startTime.getTime()
  if (moved && status === 'live') throw new DomainError(409, 'errors.liveStartTime')
  const fairPlay = fairPlayChanges(input, row)
  const fairPlayChanged = Object.keys(fairPlay).length > 0
  if (fairPlayChanged && status === 'live') throw new DomainError(409, 'errors.fairPlayStarted')
  if (moved && input.startTime.getTime() < Date.now() - START_GRACE_MS)
    throw new DomainError(400, 'errors.startInPast')
  await prisma.auction.update({
    where: { id },
    data: { ...formColumns(input, row.displayId, row.isBidPackage), ...fairPlay },
  })
  const loaded = await engine.loadAuction(id)
  // It started in between: the new start time and fair-play settings did not apply (the engine
  // keeps a live auction's own); say so rather than pretend.
  if ((moved || fairPlayChanged) && loaded === 'live') {
    const { startTime, beginnerOnly, lockAfterMinutes } = row
    await prisma.auction.update({
      where: { id },
      data: { startTime, beginnerOnly, lockAfterMinutes },
    })
    await engine.catalogChanged()
    throw new DomainError(409, moved ? 'errors.liveStartTime' : 'errors.fairPlayStarted')
  }
  return (await getAuctionById(engine, id))!
}

/** Ends a live auction now; the last bidder wins (docs/rules.md#auction-lifecycle). */
export async function endAuction(engine: Engine, id: string) {
  const exists = await getPrisma().auction.findUnique({ where: { id }, select: { status: true } })
  if (!exists) throw new DomainError(404, 'errors.auctionNotFound')
  const result = await engine.endAuction(id)
  if (!result.ok) throw new DomainError(409, 'errors.notLive')
  return (await getAuctionById(engine, id))!
}

/**
 * Deletes an auction with its bids. A live one must be ended first (its bids were spent on a
 * race that is still running); an upcoming one gives every prebid's bid and every auto-bid
 * budget back, and is refused if it started in the meantime (checked in the same Redis step
 * that removes it). One whose orders hold money stays. Decided in
 * docs/decisions/012-admin-deletes.md, docs/decisions/029-nothing-paid-disappears.md and
 * docs/decisions/041-deleted-auction-refunds-from-postgres.md: the refunds are paid from the
 * Postgres rows, each once, and the row goes only after them, so a retry after any error
 * finishes the work.
 */
export async function deleteAuction(engine: Engine, id: string) {
  const prisma = getPrisma()
  const row = await prisma.auction.findUnique({ where: { id }, select: { status: true } })
  if (!row) throw new DomainError(404, 'errors.auctionNotFound')
  const state = await engine.getState(id)
  const status = state?.status ?? row.status
  if (status === 'live') throw new DomainError(409, 'errors.endFirst')
  await assertAuctionDeletable(prisma, id)
  const removed = await engine.removeAuction(id, status)
  if (!removed.ok) throw new DomainError(409, 'errors.startedMeanwhile')
  // The rows are complete once the outbox has written what Redis held when it let go.
  if (!(await waitForOutbox(engine, removed.through, OUTBOX_WAIT_MS)))
    throw new DomainError(503, 'errors.deleteTryAgain')
  const refunds = await refundHolds(engine, id)
  // Deleted by someone else in the meantime: the outcome is the same.
  await prisma.$transaction((tx) =>
    deleteWithUnpaidOrders(tx, { auctionId: id }, 'errors.auctionHasPayments', () =>
      tx.auction.deleteMany({ where: { id } }),
    ),
  )
  await engine.catalogChanged()
  return { refunded: refunds.prebids }
}

/** DELETE /api/admin/finished-auctions/{id}: only for finished auctions. */
export async function deleteFinishedAuction(engine: Engine, id: string) {
  const row = await getPrisma().auction.findUnique({ where: { id }, select: { status: true } })
  if (!row) throw new DomainError(404, 'errors.auctionNotFound')
  const state = await engine.getState(id)
  if ((state?.status ?? row.status) !== 'finished') throw new DomainError(409, 'errors.notFinished')
  return deleteAuction(engine, id)
}
