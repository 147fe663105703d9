import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import type { Redis } from 'ioredis'

type Arg = string | number

/**
 * Where the Lua sources are: the nearest `lua/` folder beside this module or above it. That is
 * engine/lua/ in development and tests; in the production build, build/lua/ (copied there by
 * scripts/build-server.ts), beside build/server.js and above the app's server build, whose
 * chunks are in build/server/assets/.
 */
function findLuaDir(): URL {
  let dir = new URL('./', import.meta.url)
  for (let up = 0; up < 4; up++) {
    const lua = new URL('lua/', dir)
    if (existsSync(new URL('shared/now.lua', lua))) return lua
    dir = new URL('../', dir)
  }
  throw new Error(`no lua/ folder with the engine's scripts beside or above ${import.meta.url}`)
}
const LUA_DIR = findLuaDir()

/** The text of engine/lua/<path>.lua. */
function luaSource(path: string): string {
  return readFileSync(new URL(`${path}.lua`, LUA_DIR), 'utf8')
}

export type ScriptDefinition<K extends string, A extends string, R> = {
  /** The script's file: engine/lua/<name>.lua. */
  name: string
  /** Lua shared with other scripts, put before the script: engine/lua/shared/<name>.lua each. */
  shared?: readonly string[]
  /** The script's KEYS in order: KEYS[1] is the first name. */
  keys: readonly K[]
  /** The script's ARGV in order; a call may add more after them (`rest`). */
  args: readonly A[]
  /** The typed reply made of what the script returns. */
  parse: (reply: unknown) => R
}

/**
 * A Lua script run by its SHA1 (EVALSHA) with named keys and arguments and a typed reply.
 * Redis forgets scripts on restart or SCRIPT FLUSH; on NOSCRIPT the script is loaded again and
 * the call repeated, so callers never see that error.
 */
export type Script<K extends string, A extends string, R> = {
  readonly name: string
  readonly keys: readonly K[]
  readonly args: readonly A[]
  readonly lua: string
  readonly sha: string
  run(
    redis: Redis,
    keys: Record<K, string>,
    args: Record<A, Arg>,
    rest?: readonly Arg[],
  ): Promise<R>
  load(redis: Redis): Promise<void>
}

/** Every script defined, so that one call loads them all into Redis. */
const defined: Array<Script<string, string, unknown>> = []

export function defineScript<K extends string, A extends string, R>(
  definition: ScriptDefinition<K, A, R>,
): Script<K, A, R> {
  const { name, keys, args, parse } = definition
  const lua = [...(definition.shared ?? []).map((path) => `shared/${path}`), name]
    .map(luaSource)
    .join('\n')
  const sha = createHash('sha1').update(lua).digest('hex')
  const call = (redis: Redis, values: Arg[]) => redis.evalsha(sha, keys.length, ...values)
  const script: Script<K, A, R> = {
    name,
    keys,
    args,
    lua,
    sha,
    async run(redis, keyValues, argValues, rest = []) {
      const values: Arg[] = []
      for (const key of keys) values.push(keyValues[key])
      for (const arg of args) values.push(argValues[arg])
      for (const value of rest) values.push(value)
      try {
        return parse(await call(redis, values))
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
        await redis.script('LOAD', lua)
        return parse(await call(redis, values))
      }
    },
    async load(redis) {
      await redis.script('LOAD', lua)
    },
  }
  defined.push(script as Script<string, string, unknown>)
  return script
}

/** Every script defined so far. */
export function definedScripts(): ReadonlyArray<Script<string, string, unknown>> {
  return defined
}

/** Loads every script defined so far into Redis. */
export async function loadScripts(redis: Redis) {
  await Promise.all(defined.map((script) => script.load(redis)))
}

/** A script's refusal, `{'err', reason}` in Lua. */
export type Refused<Reason extends string> = { status: 'refused'; reason: Reason }

/** The refusal in a reply, or null when it is none. */
export function refusal<Reason extends string>(reply: unknown[]): Refused<Reason> | null {
  return reply[0] === 'err' ? { status: 'refused', reason: reply[1] as Reason } : null
}

/** A number in a reply; missing is 0. */
export const num = (value: unknown) => Number(value ?? 0)
