import type { LoaderFunctionArgs } from '@remix-run/node'
import { timersInSeconds } from '~/models/auction-json.ts'
import { json } from '~/utils/api.server.ts'

// docs/rules.md#calls: auction id -> seconds left, straight from Redis (polled every second).
export async function loader({ context }: LoaderFunctionArgs) {
  const { timers } = await context.engine.getTimers()
  return json(timersInSeconds(timers))
}
