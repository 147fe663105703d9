import type { ActionFunctionArgs, AppLoadContext } from '@remix-run/node'
import type { z } from 'zod'
import { getUserView } from '~/models/user-view.server.ts'
import {
  apiError,
  json,
  tooMany,
  methodNotAllowed,
  readJson,
  translator,
  validate,
} from '~/utils/api.server.ts'

/** What signing in (app/services/login.server.ts) or registering (registration.server.ts) gave. */
type SignInResult =
  | { ok: true; userId: string; cookie: string }
  | { ok: false; status: 429; seconds: number }
  | { ok: false; status: number; message: string }

/**
 * The action of POST /api/auth/login and /api/auth/register: the JSON body checked by `schema`,
 * then `signIn`; the account and its session cookie answered with `status`, or the refusal as
 * `{"error": …}` (a 429 with its wait).
 */
export function apiSignIn<S extends z.ZodTypeAny>(
  schema: S,
  signIn: (request: Request, context: AppLoadContext, body: z.output<S>) => Promise<SignInResult>,
  status = 200,
) {
  return async function action({ request, context }: ActionFunctionArgs) {
    if (request.method !== 'POST') return methodNotAllowed(request)
    const t = await translator(request)
    const body = validate(schema, await readJson(request, t), t)
    const outcome = await signIn(request, context, body)
    if (!outcome.ok)
      return 'seconds' in outcome
        ? tooMany(t, outcome.seconds)
        : apiError(outcome.status, t(outcome.message))
    return json(
      { user: await getUserView(context.engine, outcome.userId) },
      { status, headers: { 'Set-Cookie': outcome.cookie } },
    )
  }
}
