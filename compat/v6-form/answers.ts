/**
 * The two answers side by side: the v6 answer is put back into the v5 shape with the moves the
 * rewrite reported (`data.User.userGetAll` → `data.userGetAll`, error paths alike), then `data`
 * and `errors` are compared. Error ids (`extensions.errorId`, a fresh one per masked error) and
 * locations (they point into two different texts; compat maps its own back already) are left out.
 */
import type { MovedPath } from './document.js';

export interface Answer {
  data?: unknown;
  errors?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function startsWith(path: readonly unknown[], prefix: readonly string[]): boolean {
  return prefix.every((p, i) => path[i] === p);
}

/** The v6 `data` re-keyed as v5 clients read it; what no move names stays where it is. */
export function asV5Data(data: unknown, moves: readonly MovedPath[]): unknown {
  if (!isObject(data)) return data;
  const out: Record<string, unknown> = { ...data };
  const groups = new Set<string>();
  for (const move of moves) {
    const [group, key] = move.to as [string, string];
    const value = data[group];
    if (!isObject(value) || !(key in value)) continue;
    out[move.from[0]!] = value[key];
    groups.add(group);
  }
  // A group's keys all went back to the root: the group itself is the migration's, not the client's.
  for (const group of groups) {
    const rest = Object.keys(data[group] as object).filter((k) => !moves.some((m) => m.to[0] === group && m.to[1] === k));
    if (rest.length === 0 && !moves.some((m) => m.from[0] === group)) delete out[group];
  }
  return out;
}

function normalError(error: unknown, moves: readonly MovedPath[]): unknown {
  if (!isObject(error)) return error;
  const { locations: _locations, ...rest } = error;
  const out: Record<string, unknown> = { ...rest };
  if (Array.isArray(error.path)) {
    const move = moves.find((m) => startsWith(error.path as unknown[], m.to));
    out.path = move ? [...move.from, ...(error.path as unknown[]).slice(move.to.length)] : error.path;
  }
  if (isObject(error.extensions)) {
    const { errorId, ...extensions } = error.extensions;
    out.extensions = extensions;
    // A masked message names its id too ("Internal server error (error id 1d1388db)").
    if (typeof errorId === 'string' && errorId && typeof error.message === 'string') out.message = error.message.split(errorId).join('<error id>');
  }
  return out;
}

function normalErrors(errors: unknown, moves: readonly MovedPath[]): unknown {
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  return errors.map((e) => normalError(e, moves));
}

const step = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** The first path where the two values differ (objects compared by keys, in any order), else undefined. */
export function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  const keys: Array<string | number> = [];
  // The path is written out only once a difference is found: a shadow run compares whole answers
  // that are mostly the same, and a string per visited value cost more than the comparison.
  return differs(a, b, keys) ? keys.reduce<string>(step, path) : undefined;
}

/** Whether the values differ; `keys` is left holding the path to the first difference. */
function differs(a: unknown, b: unknown, keys: Array<string | number>): boolean {
  if (Object.is(a, b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      keys.push(i);
      if (i >= a.length || i >= b.length || differs(a[i], b[i], keys)) return true;
      keys.pop();
    }
    return false;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a)) {
      keys.push(key);
      if (!(key in b) || differs(a[key], b[key], keys)) return true;
      keys.pop();
    }
    for (const key of Object.keys(b)) {
      if (key in a) continue;
      keys.push(key);
      return true;
    }
    return false;
  }
  return true;
}

export interface Comparison {
  /** Undefined when the answers are the same. */
  path?: string;
  v5: { data: unknown; errors: unknown };
  v6: { data: unknown; errors: unknown };
}

/** The answers compared, the v6 one in the v5 shape. */
export function compareAnswers(v5: Answer, v6: Answer, moves: readonly MovedPath[]): Comparison {
  const left = { data: v5.data ?? null, errors: normalErrors(v5.errors, []) };
  const right = { data: asV5Data(v6.data ?? null, moves), errors: normalErrors(v6.errors, moves) };
  const path = firstDifference(left.data, right.data, 'data') ?? firstDifference(left.errors, right.errors, 'errors');
  return { ...(path ? { path } : {}), v5: left, v6: right };
}

/** The value at a reported path (`data.a[0].b`), for the report's "v5 had / v6 has". */
export function valueAt(root: { data: unknown; errors: unknown }, path: string): unknown {
  let value: unknown = root;
  for (const part of path.match(/[^.[\]"]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\]/g) ?? []) {
    const key = part.startsWith('[') ? JSON.parse(part.slice(1, -1)) : part;
    value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}
