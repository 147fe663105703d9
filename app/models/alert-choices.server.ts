import { isLanguage } from '~/i18n/config.ts'
import { ALERT_KINDS, type AlertChannelName, type AlertKind } from '~/models/alert-kinds.ts'
import { isQuietHour, type QuietHours } from '~/utils/quiet-hours.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { readRows } from '~/utils/sql.server.ts'

// A person's alert choices (docs/rules.md#alerts): one switch per alert kind and channel (on
// unless turned off), quiet hours, and the language alerts are written in.

export type AlertChoices = QuietHours & {
  /** `kind:channel` of the switches that are off. */
  off: string[]
}

export const choiceName = (kind: AlertKind, channel: AlertChannelName) => `${kind}:${channel}`

// The switches that are off and the quiet hours in one plain statement (app/utils/sql.server.ts).
const CHOICES_SQL = `SELECT s."quietFrom", s."quietTo",
    ARRAY(SELECT o.kind || ':' || o.channel FROM "AlertOff" o WHERE o."userId" = $1
      ORDER BY o.kind, o.channel) AS off
  FROM (SELECT 1) AS one LEFT JOIN "AlertSettings" s ON s."userId" = $1`

export async function getAlertChoices(userId: string): Promise<AlertChoices> {
  const [row] = await readRows<AlertChoices>('alert-choices', CHOICES_SQL, [userId])
  return { off: row?.off ?? [], quietFrom: row?.quietFrom ?? null, quietTo: row?.quietTo ?? null }
}

/**
 * Saves the switches of the listed channels (those not in `on` are off) and the quiet hours
 * (both set, or both null). A malformed hour is a 400.
 */
export async function saveAlertChoices(
  userId: string,
  channels: readonly AlertChannelName[],
  on: readonly string[],
  quiet: { quietFrom: unknown; quietTo: unknown },
) {
  const none = quiet.quietFrom === null && quiet.quietTo === null
  if (!none && (!isQuietHour(quiet.quietFrom) || !isQuietHour(quiet.quietTo)))
    throw new DomainError(400, 'alerts:errors.quietHours')
  const chosen = new Set(on)
  const off = channels.flatMap((channel) =>
    ALERT_KINDS.filter((kind) => !chosen.has(choiceName(kind, channel))).map((kind) => ({
      userId,
      kind,
      channel,
    })),
  )
  const hours = {
    quietFrom: none ? null : (quiet.quietFrom as number),
    quietTo: none ? null : (quiet.quietTo as number),
  }
  const prisma = getPrisma()
  await prisma.$transaction([
    prisma.alertOff.deleteMany({ where: { userId, channel: { in: [...channels] } } }),
    prisma.alertOff.createMany({ data: off, skipDuplicates: true }),
    prisma.alertSettings.upsert({
      where: { userId },
      create: { userId, ...hours },
      update: hours,
    }),
  ])
}

/** Whether the person wants this kind of alert on this channel. */
export async function isAlertOn(userId: string, kind: AlertKind, channel: AlertChannelName) {
  const off = await getPrisma().alertOff.findUnique({
    where: { userId_kind_channel: { userId, kind, channel } },
    select: { kind: true },
  })
  return off === null
}

/** Remembers the language the person uses on the site (their alerts are written in it). */
export async function rememberLanguage(userId: string, language: string) {
  if (!isLanguage(language)) return
  await getPrisma().user.updateMany({
    where: { id: userId, OR: [{ language: null }, { language: { not: language } }] },
    data: { language },
  })
}
