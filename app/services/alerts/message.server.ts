import { fallbackLanguage, isLanguage } from '~/i18n/config.ts'
import type { AlertMessage } from '~/services/alerts/channel.server.ts'
import type { AlertJob } from '~/services/alerts/queue-keys.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// An alert's text in the person's language with the link to its auction or order
// (docs/rules.md#alerts); texts in app/locales/*/alerts.json.

export const ALERTS_NS = 'alerts'

/** The site's public address, for links in alerts. */
export function alertOrigin() {
  const env = getEnv()
  return env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}`
}

/** The message for a job, or null when what it is about is gone (an auction deleted). */
export async function alertMessage(job: AlertJob): Promise<AlertMessage | null> {
  const prisma = getPrisma()
  const [user, auction] = await Promise.all([
    prisma.user.findUnique({ where: { id: job.userId }, select: { language: true } }),
    job.auctionId
      ? prisma.auction.findUnique({
          where: { id: job.auctionId },
          select: { title: true, slug: true },
        })
      : null,
  ])
  if (!user || (job.auctionId && !auction)) return null
  const language = user.language && isLanguage(user.language) ? user.language : fallbackLanguage
  const t = await getFixedT(language, ALERTS_NS)
  const title = auction?.title ?? ''
  // An item passed to a runner-up is theirs to claim on the profile's orders (delivery, then pay).
  const path =
    job.kind === 'offered' ? '/profile#orders' : auction ? `/auction/${auction.slug}` : '/profile'
  return {
    kind: job.kind,
    language,
    title: t(`messages.${job.kind}.title`, { title }),
    body: t(`messages.${job.kind}.body`, { title }),
    url: new URL(path, alertOrigin()).toString(),
    auctionId: job.auctionId ?? null,
  }
}
