import { Link, useFetcher } from '@remix-run/react'
import { lazy, Suspense, useEffect, useState } from 'react'
import { WelcomeContent } from '~/components/welcome.tsx'
import { useTrack } from '~/utils/analytics.ts'
import { useTranslation } from '~/i18n/use-translation.ts'
import { showToast } from '~/components/toaster.tsx'
import { useHydrated, useRootData } from '~/utils/hooks.ts'
import { useAvailability } from '~/utils/use-availability.ts'
import {
  completeProfileError,
  latestAdultBirthDate,
  normalizePhoneInput,
  PHONE_PREFIX,
} from '~/validation/user-rules.ts'
import { useIsPending } from '~/utils/use-is-pending.ts'
import { ONBOARDING_SHOWN_ACTION } from '~/utils/revalidation.ts'
import { Button, buttonClass } from '~/components/ui/button.tsx'
import type { Onboarding as OnboardingSteps } from '~/types/onboarding.ts'
import { GenderOptions } from '~/components/profile/gender-options.tsx'

// The dialog's window (Radix Dialog) is loaded only for the person who has a dialog to see.
const OnboardingDialog = lazy(() => import('~/components/onboarding-dialog.tsx'))

/**
 * The welcome and complete-profile dialogs after registration (docs/rules.md#onboarding), each shown
 * once. Without JavaScript they are plain sections at the top of the page, with a plain form.
 */
export function Onboarding({ onboarding }: { onboarding: OnboardingSteps }) {
  const { user } = useRootData()
  const hydrated = useHydrated()
  const [step, setStep] = useState<'welcome' | 'profile' | 'done'>(
    onboarding.welcome ? 'welcome' : onboarding.completeProfile ? 'profile' : 'done',
  )
  // The flags come once (the loader clears their cookie), and any later reload of the root
  // data says false: whether the profile dialog follows the welcome is remembered here.
  const [profileDue, setProfileDue] = useState(onboarding.completeProfile)
  // Shown: the page says so, and the flags end (a data answer leaves them, as it may be dropped
  // unseen: app/services/onboarding.server.ts).
  const { submit: markShown } = useFetcher()
  useEffect(() => {
    if (onboarding.welcome || onboarding.completeProfile) {
      setStep(onboarding.welcome ? 'welcome' : 'profile')
      setProfileDue(onboarding.completeProfile)
      markShown({ via: 'fetcher' }, { method: 'post', action: ONBOARDING_SHOWN_ACTION })
    }
  }, [onboarding.welcome, onboarding.completeProfile, markShown])
  // The welcome flag is set once, by a registration: that is the sign-up.
  const track = useTrack()
  useEffect(() => {
    if (onboarding.welcome) track({ event: 'sign_up' })
  }, [onboarding.welcome, track])
  if (!user || step === 'done') return null

  if (!hydrated) {
    return (
      <div className="mb-8 space-y-4">
        {onboarding.welcome ? (
          <section
            aria-labelledby="welcome-title"
            className="rounded-2xl border border-amber-200 bg-amber-50 p-6"
          >
            <WelcomeContent titleId="welcome-title" />
          </section>
        ) : null}
        {onboarding.completeProfile ? (
          <section
            aria-labelledby="complete-profile-title"
            className="rounded-2xl border border-slate-200 bg-white p-6"
          >
            <CompleteProfileForm titleId="complete-profile-title" onDone={() => setStep('done')} />
          </section>
        ) : null}
      </div>
    )
  }

  const next = () => setStep(step === 'welcome' && profileDue ? 'profile' : 'done')
  return (
    <Suspense fallback={null}>
      <OnboardingDialog open={step === 'welcome'} onClose={next} titleId="welcome-dialog-title">
        <WelcomeContent titleId="welcome-dialog-title" onClose={next} />
      </OnboardingDialog>
      <OnboardingDialog
        open={step === 'profile'}
        onClose={() => setStep('done')}
        titleId="complete-profile-dialog-title"
        fullScreenOnMobile
      >
        <CompleteProfileForm
          titleId="complete-profile-dialog-title"
          onDone={() => setStep('done')}
        />
      </OnboardingDialog>
    </Suspense>
  )
}

function CompleteProfileForm({ titleId, onDone }: { titleId: string; onDone: () => void }) {
  const { t } = useTranslation()
  const { path, user } = useRootData()
  const hydrated = useHydrated()
  const fetcher = useFetcher<{ ok: boolean; error?: string }>()
  const pending = useIsPending({ fetcher })
  const [phone, setPhone] = useState(PHONE_PREFIX)
  const phoneCheck = useAvailability('phone', phone, {
    minLength: PHONE_PREFIX.length + 1,
    failedMessage: t('validation.phoneCheckFailed'),
  })
  const today = new Date()
  const maxDate = latestAdultBirthDate(today)

  useEffect(() => {
    if (pending || !fetcher.data) return
    if (fetcher.data.ok) onDone()
    else if (fetcher.data.error)
      showToast({
        type: 'error',
        title: t('completeProfile.saveFailed'),
        description: fetcher.data.error,
      })
  }, [pending, fetcher.data, onDone, t])

  // The same form before and after hydration (a fetcher's form is a plain form without
  // JavaScript): switching components would remount it and drop what was typed meanwhile.
  const FormComponent = fetcher.Form
  const fieldClass = 'w-full rounded-md border border-slate-300 bg-white px-3 py-2'
  return (
    <FormComponent
      method="post"
      action="/complete-profile"
      className="space-y-3"
      noValidate
      onSubmit={(event) => {
        if (!hydrated) return
        const value = Object.fromEntries(new FormData(event.currentTarget)) as Record<
          string,
          string
        >
        const problem = completeProfileError(value, new Date())
        const message = problem
          ? t(problem)
          : phoneCheck.state === 'invalid'
            ? phoneCheck.message
            : null
        if (message) {
          event.preventDefault()
          showToast({ type: 'error', title: t('completeProfile.saveFailed'), description: message })
        }
      }}
    >
      <h2 id={titleId} className="text-xl font-bold">
        {t('completeProfile.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('completeProfile.text')}</p>
      <input type="hidden" name="redirectTo" value={path} />
      {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm font-medium">
          {t('completeProfile.firstName')}
          <input
            name="firstName"
            autoComplete="given-name"
            defaultValue={user?.firstName ?? ''}
            className={`mt-1 ${fieldClass}`}
          />
        </label>
        <label className="block text-sm font-medium">
          {t('completeProfile.lastName')}
          <input
            name="lastName"
            autoComplete="family-name"
            defaultValue={user?.lastName ?? ''}
            className={`mt-1 ${fieldClass}`}
          />
        </label>
      </div>
      <label className="block text-sm font-medium">
        {t('completeProfile.phone')}
        <input
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={hydrated ? phone : undefined}
          defaultValue={hydrated ? undefined : PHONE_PREFIX}
          onChange={(event) => setPhone(normalizePhoneInput(event.currentTarget.value))}
          className={`mt-1 ${fieldClass}`}
          aria-describedby="complete-profile-phone-status"
        />
        <span id="complete-profile-phone-status" aria-live="polite" className="mt-1 block text-xs">
          {phoneCheck.state === 'checking' ? t('validation.checking') : null}
          {phoneCheck.state === 'valid' || phoneCheck.state === 'invalid' ? (
            <span className={phoneCheck.state === 'valid' ? 'text-emerald-700' : 'text-red-700'}>
              {phoneCheck.message}
            </span>
          ) : null}
        </span>
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm font-medium">
          {t('completeProfile.dateOfBirth')}
          <input
            name="dateOfBirth"
            type="date"
            max={maxDate}
            className={`mt-1 ${fieldClass}`}
            aria-describedby="complete-profile-adult"
          />
          <span id="complete-profile-adult" className="mt-1 block text-xs text-slate-600">
            {t('completeProfile.adultHint')}
          </span>
        </label>
        <label className="block text-sm font-medium">
          {t('completeProfile.gender')}
          <select name="gender" defaultValue="" className={`mt-1 ${fieldClass}`}>
            <GenderOptions />
          </select>
        </label>
      </div>
      <div className="flex flex-wrap justify-end gap-2 pt-2">
        {hydrated ? (
          <Button type="button" variant="outline" onClick={onDone}>
            {t('completeProfile.skip')}
          </Button>
        ) : (
          <Link to={path} className={buttonClass({ variant: 'outline' })}>
            {t('completeProfile.skip')}
          </Link>
        )}
        <Button pending={pending}>{t('completeProfile.submit')}</Button>
      </div>
    </FormComponent>
  )
}
