import { Engine } from '../../engine/index.ts'
import { getRedis } from '~/utils/redis.server.ts'
import { register } from '~/services/registration.server.ts'
import { getPrisma } from '~/utils/db.server.ts'
import { getEnv } from '~/utils/env.server.ts'

// Unit tests' accounts, made the way the /login page and the JSON API make them
// (app/services/registration.server.ts), on the test's own Redis and database.

/** An engine on the app's Redis, database and key prefix, as the server makes it. */
export const appEngine = () =>
  new Engine({ redis: getRedis(), prisma: getPrisma(), prefix: getEnv().REDIS_PREFIX })

let counter = 0
/** A username no test has used yet, starting with `tag`. */
export const uniqueName = (tag: string) => `${tag}${Date.now().toString(36)}${counter++}`

/** A sign-in or registration form's post, as the page sends it. */
export const loginRequest = () => new Request('http://localhost/login', { method: 'POST' })

/** A registration from `clientIp` with the password `secret12` (the email: `username@mail.kg`). */
export function signUp(
  engine: Engine,
  clientIp: string,
  username: string,
  email = `${username}@mail.kg`,
) {
  return register(loginRequest(), { engine, clientIp }, { username, email, password: 'secret12' })
}

/** A new account (password `secret12`), registered from `clientIp`. */
export async function newAccount(tag: string, clientIp = '10.0.0.1') {
  const engine = appEngine()
  const username = uniqueName(tag)
  const outcome = await signUp(engine, clientIp, username)
  if (!outcome.ok) throw new Error(`registration refused: ${outcome.status}`)
  return { engine, username, userId: outcome.userId, freeBidsOnPhone: outcome.freeBidsOnPhone }
}
