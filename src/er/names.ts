/**
 * The public name of a user's class: GraphQL type and group names, compat flat names, use-case
 * routes and tags, OpenAPI components, MCP entries. It must be the name as written in the source,
 * whatever compiled it, so it is never read from `cls.name` alone:
 *
 * - esbuild (tsx, vitest, Vite) lowers decorators by renaming a class whose own decorators
 *   mention it: `class User { @query({ returns: () => [User] }) ... }` has `User.name === '_User'`
 *   unless a class decorator restores it; minifiers shorten names to `e`, `t`, `Ae`.
 * - A TC39 class decorator receives the name as written (`context.name`), so `@Base.entity`
 *   and `@serialization` record it; `Base.entity(C, { name })` and `new Entity({ kls, name })`
 *   give it explicitly.
 * - Otherwise `cls.name` is used, unless it looks made by a tool: then a `ConfigError` names the
 *   class and says how to name it, instead of a schema with `_User` in it.
 */
import { ConfigError } from './errors.js';

const given = new WeakMap<Function, string>();

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * Whether a class name looks made by a transpiler or minifier rather than written: empty
 * (anonymous class), starting with `_` (esbuild's rename) or `$`, holding `$` (bundlers'
 * `User$1`), or one or two characters starting lowercase (minified: `e`, `t`, `nt`).
 */
export function looksMangled(name: string): boolean {
  return !name || /^[_$]/.test(name) || name.includes('$') || /^[a-z][A-Za-z0-9]?$/.test(name);
}

/** Record the public name of a class; naming one class two different ways is an error. */
export function nameClass(kls: Function, name: string, where: string): void {
  if (typeof name !== 'string' || !GRAPHQL_NAME.test(name) || name.startsWith('__')) {
    throw new ConfigError(`${where}: name ${JSON.stringify(name)} is not a valid GraphQL type name`);
  }
  const before = given.get(kls);
  if (before !== undefined && before !== name) {
    throw new ConfigError(`${where}: the class is already named ${before}, not ${name}`);
  }
  given.set(kls, name);
}

/** A TC39 class decorator's context carries the class name as written; record it. */
export function nameFromDecoratorContext(kls: Function, context: unknown): void {
  const ctx = context as { kind?: unknown; name?: unknown } | null | undefined;
  if (ctx && typeof ctx === 'object' && ctx.kind === 'class' && typeof ctx.name === 'string' && ctx.name) {
    given.set(kls, ctx.name);
  }
}

/** The explicit name of a class, if one was given or recorded. */
export const explicitName = (kls: Function): string | undefined => given.get(kls);

/**
 * The public name of a class. Throws a `ConfigError` when only a tool-made `cls.name` is known.
 * `role` says what the class is, for the message (`entity`, `model`, `use-case service`).
 */
export function className(kls: Function, role = 'model'): string {
  const name = given.get(kls);
  if (name !== undefined) return name;
  const written = kls.name;
  if (!looksMangled(written)) return written;
  const shown = written ? `'${written}'` : 'an anonymous class';
  const fix =
    role === 'entity'
      ? `Name it explicitly — Base.entity(Cls, { name: 'User' }) or new Entity({ kls: Cls, name: 'User' }) — or declare it with @Base.entity`
      : `Declare it with a class decorator (@serialization records the name as written), or keep class names when bundling (esbuild keepNames, terser keep_classnames)`;
  throw new ConfigError(
    `The ${role} class ${shown} has a name that looks made by a transpiler or minifier, not written ` +
      `(esbuild, used by tsx, vitest and Vite, renames a class whose own decorators mention it to _<Name>; minifiers shorten names). ${fix}.`,
  );
}

/** The name to show in a message: like `className`, but never throws. */
export function classLabel(kls: Function | null | undefined): string {
  if (!kls) return 'unknown';
  return given.get(kls) ?? (kls.name || 'anonymous class');
}
