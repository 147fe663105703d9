import { useTranslation } from '~/i18n/use-translation.ts'
import { genders } from '~/validation/user.ts'

/** A gender select's options: none chosen yet, then each gender a profile may say. */
export function GenderOptions() {
  const { t } = useTranslation()
  return (
    <>
      <option value="">{t('completeProfile.chooseGender')}</option>
      {genders.map((gender) => (
        <option key={gender} value={gender}>
          {t(`completeProfile.genders.${gender}`)}
        </option>
      ))}
    </>
  )
}
