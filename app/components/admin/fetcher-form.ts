import { getFormProps, useForm, type DefaultValue, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { useFetcher } from '@remix-run/react'
import type { z } from 'zod'
import { useIsPending } from '~/utils/use-is-pending.ts'

/**
 * A dashboard form that posts through a fetcher (`id`, the fetcher's key too), so the page stays
 * as it is and a refusal shows where the admin typed: checked by `schema` on blur and then on
 * input; the refusal the server rendered for a post without JavaScript (`lastResult`) until the
 * fetcher has one of its own; `busy` while the post is on its way (the pages reload afterwards
 * in the background). `formProps` go on the fetcher's form, with its `action`.
 */
export function useFetcherForm<Schema extends z.ZodTypeAny>({
  id,
  schema,
  lastResult,
  constraint = getZodConstraint(schema),
  defaultValue,
}: {
  id: string
  schema: Schema
  lastResult?: SubmissionResult<string[]>
  constraint?: ReturnType<typeof getZodConstraint>
  defaultValue?: DefaultValue<z.input<Schema>>
}) {
  const fetcher = useFetcher<{ result: SubmissionResult<string[]> }>({ key: id })
  const busy = useIsPending({ fetcher, state: 'submitting' })
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult: fetcher.data?.result ?? lastResult,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const formProps = { method: 'post', preventScrollReset: true, ...getFormProps(form) } as const
  return { fetcher, busy, form, fields, formProps }
}
