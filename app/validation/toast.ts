import { z } from 'zod'

// A toast: the short message a page shows after an action (app/services/toast.server.ts carries
// it to the next page in a cookie; app/components/toaster.tsx shows it).

export const toastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  type: z.enum(['message', 'success', 'error']).default('message'),
  title: z.string().optional(),
  description: z.string(),
})
export type Toast = z.infer<typeof toastSchema>
export type ToastInput = z.input<typeof toastSchema>
