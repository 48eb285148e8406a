import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import calculateSlot from 'cluster-key-slot';
import type { RedisClient } from './connection';

/**
 * The one way photowire loads, registers and calls a Lua script: ioredis `defineCommand`
 * (EVALSHA, EVAL once when the script is not cached yet), the same on a `Redis` and a `Cluster`.
 * The number of keys is passed with each call, so a script may take a varying number of KEYS.
 * Every key a script touches is one of its KEYS (none built inside from ARGV), and they must share
 * one Redis Cluster slot: `runScript` refuses keys in more than one slot, on a single Redis too,
 * so a key layout that would fail on a cluster fails in every test.
 */
export interface LuaScript {
  /** The command name ioredis defines (`pw...`), unique per script. */
  readonly name: string;
  readonly lua: string;
}

export function luaScript(name: string, lua: string): LuaScript {
  if (!/^pw[A-Za-z0-9]+$/.test(name)) throw new RangeError(`a script name must be pw<Letters>: ${name}`);
  return { name, lua };
}

/**
 * Where the `.lua` files are: beside this module, in src/ (ts-jest, ts-node) and in dist/ and
 * dist-bench/ (tsc copies no .lua: `npm run build` and `npm run bench` run scripts/copyLua.js).
 */
export const LUA_DIR = join(__dirname, 'lua');

/** `--- @include "includes/name"` on a line of its own (BullMQ's syntax): that file's text, once per script. */
const INCLUDE = /^--- @include "([A-Za-z0-9_/-]+)"[ \t]*$/gm;

/**
 * The text of `lua/<file>.lua` with its includes resolved (each file included once, the first
 * time it is named, so two shared parts may both include a third). A missing file throws at
 * module load, when the store that names it is first imported: not at the first call.
 */
export function loadLua(file: string, included: Set<string> = new Set()): string {
  const text = readFileSync(join(LUA_DIR, `${file}.lua`), 'utf8');
  return text.replace(new RegExp(INCLUDE.source, INCLUDE.flags), (_line, name: string) => {
    if (included.has(name)) return '';
    included.add(name);
    return loadLua(name, included).replace(/\n$/, '');
  });
}

/** A script from `lua/<file>.lua` (see loadLua), as the command `name`. */
export function luaFile(name: string, file: string): LuaScript {
  return luaScript(name, loadLua(file));
}

type Arg = string | Buffer | number;
type Callable = Record<string, (numKeys: number, ...keysAndArgs: Arg[]) => Promise<unknown>>;

/** The slot of each key and whether they are one; for tests and the error message. */
export function slotOf(keys: ReadonlyArray<string | Buffer>): number {
  return keys.length === 0 ? -1 : calculateSlot.generateMulti(keys as Array<string | Buffer>);
}

export class CrossSlotScriptError extends RangeError {
  constructor(script: string, keys: ReadonlyArray<string | Buffer>) {
    super(
      `Lua script ${script}: its KEYS are in more than one Redis Cluster slot (${keys.map((k) => `${String(k)}=${calculateSlot(k)}`).join(', ')}); see src/adapters/redis/keys.ts`,
    );
    this.name = 'CrossSlotScriptError';
  }
}

/**
 * The hash tag every key shares (`{tag}`: the text between a key's first '{' and the first '}'
 * after it, when not empty), or null when they do not all have the same one. Keys sharing a tag
 * are in one slot, so the caption index's ~200 keys per call need no CRC16 each (the slot check
 * was ~5% of the bench's Node time in a profile, docs/DEDUP.md).
 */
export function sharedHashTag(keys: ReadonlyArray<string | Buffer>): string | null {
  let tag: string | null = null;
  for (const k of keys) {
    if (typeof k !== 'string') return null;
    const open = k.indexOf('{');
    if (open < 0) return null;
    const close = k.indexOf('}', open + 1);
    if (close <= open + 1) return null;
    if (tag === null) tag = k.slice(open + 1, close);
    else if (close - open - 1 !== tag.length || !k.startsWith(tag, open + 1)) return null;
  }
  return tag;
}

/** Refuse keys in more than one slot, and define the script's command on this connection once. */
function prepare(redis: RedisClient, script: LuaScript, keys: ReadonlyArray<string | Buffer>): void {
  if (keys.length > 0 && sharedHashTag(keys) === null && slotOf(keys) < 0)
    throw new CrossSlotScriptError(script.name, keys);
  if (typeof (redis as unknown as Callable)[script.name] !== 'function')
    redis.defineCommand(script.name, { lua: script.lua });
}

/** Run `script` with `keys` and `args`; the result is as the script returns it. */
export async function runScript<T>(
  redis: RedisClient,
  script: LuaScript,
  keys: ReadonlyArray<string | Buffer>,
  args: ReadonlyArray<Arg> = [],
): Promise<T> {
  prepare(redis, script, keys);
  return (await (redis as unknown as Callable)[script.name](keys.length, ...keys, ...args)) as T;
}

/**
 * Run `script` once per call, sent together in one pipeline (one write, one round trip): Redis runs
 * them in the order given, each atomic, exactly as if awaited one by one. Every call's keys must be
 * in one slot (a pipeline on a cluster goes to one node). Throws the first call's error, if any.
 */
export async function runScriptPipelined<T>(
  redis: RedisClient,
  script: LuaScript,
  calls: ReadonlyArray<{ keys: ReadonlyArray<string | Buffer>; args: ReadonlyArray<Arg> }>,
): Promise<T[]> {
  if (calls.length === 0) return [];
  prepare(
    redis,
    script,
    calls.flatMap((c) => c.keys),
  );
  const pipeline = redis.pipeline() as unknown as Callable & { exec(): Promise<Array<[Error | null, unknown]> | null> };
  for (const c of calls) void pipeline[script.name](c.keys.length, ...c.keys, ...c.args);
  const out = (await pipeline.exec()) ?? [];
  return out.map(([err, value]) => {
    if (err) throw err;
    return value as T;
  });
}
