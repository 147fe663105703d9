import { useRevalidator } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/use-translation.ts'
import { Panel } from '~/components/ui/panel.tsx'
import { Button } from '~/components/ui/button.tsx'
import {
  currentSubscription,
  disablePush,
  enablePush,
  endpointKey,
  pushSupported,
} from '~/utils/push-device.client.ts'

export const PUSH_NS = 'push'

/** What the section knows of this browser once its script runs. */
type DeviceState = 'unknown' | 'unsupported' | 'on' | 'off'
type Problem = 'denied' | 'failed' | null

/**
 * The profile's "Browser notifications" (docs/push.md): turns Web Push on or off for this device.
 * It needs JavaScript (a subscription is made by the browser's script): without it, the section
 * says so and changes nothing else on the page. Shown only when the site has VAPID keys. "On"
 * only when this browser's subscription is one of the person's devices (`deviceKeys`): one left
 * by someone who logged out here no longer gets anything (docs/push.md).
 */
export function PushNotifications({
  publicKey,
  devices,
  deviceKeys,
}: {
  publicKey: string
  devices: number
  deviceKeys: readonly string[]
}) {
  const { t } = useTranslation(PUSH_NS)
  const revalidator = useRevalidator()
  const [state, setState] = useState<DeviceState>('unknown')
  const [problem, setProblem] = useState<Problem>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!pushSupported()) return setState('unsupported')
    currentSubscription()
      .then(async (subscription) => {
        const mine = subscription && deviceKeys.includes(await endpointKey(subscription.endpoint))
        setState(mine ? 'on' : 'off')
      })
      .catch(() => setState('off'))
    // Read once, when the page loads: the answers of this section's own changes set it after.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  async function change(turnOn: boolean) {
    setBusy(true)
    setProblem(null)
    try {
      if (turnOn) {
        const result = await enablePush(publicKey)
        if (result === 'denied') setProblem('denied')
        else setState('on')
      } else {
        await disablePush()
        setState('off')
      }
      revalidator.revalidate()
    } catch {
      setProblem('failed')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Panel
      id="push-title"
      heading={t('section.title')}
      headingClassName="mb-2 text-xl font-semibold"
    >
      <p className="mb-2 text-sm text-slate-600">{t('section.intro')}</p>
      <p className="mb-4 text-sm text-slate-600">{t('section.devices', { count: devices })}</p>
      {state === 'unknown' ? (
        <p className="text-sm text-slate-700" data-push-state="no-script">
          {t('section.needsJs')}
        </p>
      ) : state === 'unsupported' ? (
        <p className="text-sm text-slate-700">{t('section.unsupported')}</p>
      ) : (
        <div className="space-y-3" data-push-state={state}>
          <p className="text-sm text-slate-700">
            {state === 'on' ? t('section.onHere') : t('section.offHere')}
          </p>
          <Button
            type="button"
            variant={state === 'on' ? 'outline' : 'primary'}
            pending={busy}
            onClick={() => void change(state !== 'on')}
          >
            {state === 'on' ? t('section.disable') : t('section.enable')}
          </Button>
        </div>
      )}
      {problem ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {problem === 'denied' ? t('section.denied') : t('section.failed')}
        </p>
      ) : null}
    </Panel>
  )
}
