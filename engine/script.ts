import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'

type Arg = string | number

/**
 * A Lua script run by its SHA1. Redis forgets scripts on restart or SCRIPT FLUSH; on NOSCRIPT
 * the script is loaded again and the call repeated, so callers never see that error.
 */
export class Script {
  readonly sha: string

  constructor(
    readonly name: string,
    readonly lua: string,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex')
  }

  async run<T = unknown>(redis: Redis, keys: string[], args: Arg[]): Promise<T> {
    try {
      return (await redis.evalsha(this.sha, keys.length, ...keys, ...args)) as T
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
      await redis.script('LOAD', this.lua)
      return (await redis.evalsha(this.sha, keys.length, ...keys, ...args)) as T
    }
  }

  async load(redis: Redis) {
    await redis.script('LOAD', this.lua)
  }
}
