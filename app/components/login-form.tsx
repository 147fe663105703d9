import { useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { useTranslation } from '~/i18n/use-translation.ts'
import { AuthForm, type AuthFormProps } from '~/components/auth-form-frame.tsx'
import { InputField } from '~/components/ui/field.tsx'
import { loginSchema } from '~/validation/user.ts'

/** The login tab's form: a username or email and a password. */
export function LoginForm({ idPrefix, ...props }: AuthFormProps) {
  const { t } = useTranslation()
  const [form, fields] = useForm({
    id: `${idPrefix}-login`,
    lastResult: props.lastResult,
    constraint: getZodConstraint(loginSchema),
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  })
  return (
    <AuthForm {...props} form={form} intent="login">
      <InputField
        meta={fields.username}
        label={t('auth.usernameOrEmail')}
        autoComplete="username"
      />
      <InputField
        meta={fields.password}
        type="password"
        label={t('auth.password')}
        autoComplete="current-password"
      />
    </AuthForm>
  )
}
