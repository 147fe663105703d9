import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { TAKEN, isPhoneTaken } from '~/models/user.server.ts'
import { getFixedT } from '~/i18n/i18next.server.ts'
import { withUser } from '~/services/guards.server.ts'
import { createToastHeaders, redirectWithToast } from '~/services/toast.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { safeRedirect } from '~/utils/http.ts'
import { completeProfileError, genders, phoneSchema } from '~/validation/user.ts'
import { readForm, sentByFetcher } from '~/utils/form.server.ts'

// The complete-profile dialog posts here (a plain form without JavaScript, a fetcher with it).
// Checks run in the order of docs/rules.md#onboarding; each failure is one error message.
export async function action({ request }: ActionFunctionArgs) {
  const t = await getFixedT(request)
  const form = await readForm(request)
  const to = safeRedirect(form.get('redirectTo'))
  const fetcher = sentByFetcher(form)
  const fail = async (message: string, status: number) =>
    fetcher
      ? data({ ok: false as const, error: message }, { status })
      : redirectWithToast(to, {
          type: 'error',
          title: t('completeProfile.saveFailed'),
          description: message,
        })
  return withUser(
    request,
    () => fail(t('errors.loginRequired'), 401),
    async (user) => {
      const value = {
        firstName: String(form.get('firstName') ?? ''),
        lastName: String(form.get('lastName') ?? ''),
        phone: String(form.get('phone') ?? ''),
        dateOfBirth: String(form.get('dateOfBirth') ?? ''),
        gender: String(form.get('gender') ?? ''),
      }
      const problem = completeProfileError(value, new Date())
      if (problem) return fail(t(problem), 400)
      const phone = phoneSchema.safeParse(value.phone)
      if (!phone.success) return fail(t('validation.phone'), 400)
      if (await isPhoneTaken(phone.data, user.id)) return fail(t(TAKEN.phone), 409)
      if (!(genders as readonly string[]).includes(value.gender))
        return fail(t('validation.gender'), 400)
      if (value.firstName.trim().length > 50 || value.lastName.trim().length > 50)
        return fail(t('validation.nameMax'), 400)

      await getPrisma().user.update({
        where: { id: user.id },
        data: {
          firstName: value.firstName.trim(),
          lastName: value.lastName.trim(),
          phone: phone.data,
          dateOfBirth: new Date(`${value.dateOfBirth}T00:00:00Z`),
          gender: value.gender as (typeof genders)[number],
        },
      })
      const toast = {
        type: 'success' as const,
        title: t('completeProfile.saved'),
        description: t('completeProfile.saved'),
      }
      if (fetcher) return data({ ok: true as const }, { headers: await createToastHeaders(toast) })
      return redirectWithToast(to, toast)
    },
  )
}

export function loader() {
  return redirect('/profile')
}
