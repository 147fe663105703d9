import { useTranslation } from '~/i18n/use-translation.ts'
import { useHydrated } from '~/utils/hooks.ts'
import { useSocket } from '~/utils/socket.tsx'

/** Connected / disconnected (docs/rules.md#real-time-events); without JavaScript there is no live link. */
export function ConnectionIndicator() {
  const { t } = useTranslation()
  const { connected } = useSocket()
  const hydrated = useHydrated()
  if (!hydrated) return null
  return (
    <span
      role="status"
      className="inline-flex items-center gap-1.5 text-xs font-medium text-slate-700"
    >
      <span
        aria-hidden
        className={`h-2 w-2 rounded-full ${connected ? 'bg-emerald-500' : 'bg-red-500'}`}
      />
      {connected ? t('live.connected') : t('live.disconnected')}
    </span>
  )
}
