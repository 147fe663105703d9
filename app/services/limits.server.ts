import type { TFunction } from 'i18next'
import { changeLimits, limitsAt, type Engine, type Limits } from '../../engine/index.ts'
import { readLimits, writeLimits } from '~/models/limits.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import { limitsFromForm, limitsSchema, type LimitsInput } from '~/validation/limits.ts'
import { redirectWithToast } from '~/services/toast.server.ts'
import { refuseForm } from '~/services/refuse-form.server.ts'
import type { LimitsView } from '~/types/limits.ts'

// The limits a bidder sets (docs/rules.md#limits-a-bidder-sets): one rule for the profile's forms
// and GET/PUT /api/users/limits. Postgres keeps them; the bid engine enforces its copy at once.

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

function view(limits: Limits, bidsToday: number, now: number): LimitsView {
  const inForce = limitsAt(limits, now)
  const excluded = inForce.selfExcludedUntil !== null && inForce.selfExcludedUntil > now
  const { pending } = inForce
  return {
    dailyBidLimit: inForce.dailyBidLimit,
    selfExcludedUntil: excluded ? iso(inForce.selfExcludedUntil) : null,
    pending: pending
      ? {
          dailyBidLimit: pending.dailyBidLimit,
          selfExcludedUntil: iso(pending.selfExcludedUntil),
          appliesAt: iso(pending.appliesAt)!,
        }
      : null,
    bidsToday,
  }
}

export async function getLimits(engine: Engine, userId: string): Promise<LimitsView> {
  const [limits, bidsToday] = await Promise.all([readLimits(userId), engine.bidsToday(userId)])
  if (!limits) throw new DomainError(404, 'api.notFound')
  return view(limits, bidsToday, Date.now())
}

/**
 * Changes the person's limits: Postgres first, then the engine's copy (the newer version wins
 * there), so a stricter limit refuses the very next bid. Concurrent changes apply one after the
 * other.
 */
export async function setLimits(
  engine: Engine,
  userId: string,
  change: LimitsInput,
): Promise<LimitsView> {
  for (let tries = 0; tries < 5; tries++) {
    const current = await readLimits(userId)
    if (!current) throw new DomainError(404, 'api.notFound')
    const now = Date.now()
    const next = changeLimits(current, change, now)
    if (!(await writeLimits(userId, current, next))) continue
    await engine.setLimits(userId, next)
    return view(next, await engine.bidsToday(userId), now)
  }
  throw new DomainError(409, 'limits.errors.busy')
}

/** The profile's limits forms (intent=limits): saved with a toast, or refused with the reason. */
export async function handleLimitsForm(
  engine: Engine,
  userId: string,
  form: FormData,
  t: TFunction,
) {
  const parsed = limitsSchema.safeParse(limitsFromForm(form))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = String(issue?.path[0] ?? '')
    const key = issue?.message ?? 'limits.errors.nothing'
    return refuseForm(
      { status: 'error', error: { [field]: [key] } },
      { status: 400, title: t('limits.saveFailed'), text: (k) => t(k), extra: { form: 'limits' } },
    )
  }
  const saved = await setLimits(engine, userId, parsed.data)
  const message = saved.pending ? 'limits.savedPending' : 'limits.saved'
  return redirectWithToast('/profile#limits-title', { type: 'success', description: t(message) })
}
