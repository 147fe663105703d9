import { randomBytes } from 'node:crypto'
import { createCookie } from '@remix-run/node'
import type { PrismaClient } from '../../prisma/generated/client.ts'
import { INITIAL_BALANCE, SESSION_SECRET } from './stack-common.ts'

// People of the stack (stack.ts) with signed session cookies, and auctions.

export type Person = { id: string; username: string; cookie: string }

const sessionCookie = createCookie('__Host-session', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  secure: true,
  secrets: [SESSION_SECRET],
})

/**
 * People with INITIAL_BALANCE bids, each backed by a ledger row (so balance = ledger sum from
 * the start), and a signed session cookie for a Session row of theirs.
 */
export async function createPeople(prisma: PrismaClient, count: number): Promise<Person[]> {
  const people: Person[] = []
  for (let i = 0; i < count; i++) {
    const username = `fault${i}${randomBytes(3).toString('hex')}`
    const user = await prisma.user.create({
      data: {
        username,
        email: `${username}@mail.kg`,
        bidBalance: INITIAL_BALANCE,
        ledger: {
          create: {
            amount: INITIAL_BALANCE,
            balanceAfter: INITIAL_BALANCE,
            reason: 'seed',
            reference: `faults-seed:${username}`,
          },
        },
        sessions: {
          create: {
            id: randomBytes(24).toString('base64url'),
            expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
          },
        },
      },
      select: { id: true, sessions: { select: { id: true } } },
    })
    people.push({ id: user.id, username, cookie: await cookieFor(user.sessions[0]!.id) })
  }
  return people
}

/** The `__Host-session=…` pair a browser would send for this Session row. */
export async function cookieFor(sessionId: string): Promise<string> {
  return (await sessionCookie.serialize(sessionId)).split(';')[0]!
}

/** createPeople for thousands: the same kind of people, written a thousand at a time. */
export async function createManyPeople(prisma: PrismaClient, count: number): Promise<Person[]> {
  const tag = randomBytes(3).toString('hex')
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000)
  const rows = Array.from({ length: count }, (_, i) => ({
    id: `many-${tag}-${i}`,
    username: `many${i}${tag}`,
    session: randomBytes(24).toString('base64url'),
  }))
  for (let i = 0; i < rows.length; i += 1000) {
    const batch = rows.slice(i, i + 1000)
    await prisma.$transaction([
      prisma.user.createMany({
        data: batch.map(({ id, username }) => ({
          id,
          username,
          email: `${username}@mail.kg`,
          bidBalance: INITIAL_BALANCE,
        })),
      }),
      prisma.balanceLedger.createMany({
        data: batch.map(({ id, username }) => ({
          userId: id,
          amount: INITIAL_BALANCE,
          balanceAfter: INITIAL_BALANCE,
          reason: 'seed' as const,
          reference: `faults-seed:${username}`,
        })),
      }),
      prisma.session.createMany({
        data: batch.map(({ id, session }) => ({ id: session, userId: id, expiresAt })),
      }),
    ])
  }
  return Promise.all(
    rows.map(async ({ id, username, session }) => ({
      id,
      username,
      cookie: await cookieFor(session),
    })),
  )
}

/** Auctions in Postgres that start `startsInMs` from now; a server starting up loads them. */
export async function createAuctions(prisma: PrismaClient, count: number, startsInMs = 500) {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const tag = randomBytes(3).toString('hex').toUpperCase()
    const auction = await prisma.auction.create({
      data: {
        displayId: `F${tag}`,
        slug: `faults-${tag.toLowerCase()}`,
        title: `Лот ${tag}`,
        retailPrice: 10_000_00,
        startTime: new Date(Date.now() + startsInMs),
      },
      select: { id: true },
    })
    ids.push(auction.id)
  }
  return ids
}
