/**
 * Object builders: for a selection, a function generated once per plan that reads the fields
 * which are plain properties with leaf types and returns the response object with every key of
 * the selection in place (the others null, for the executor to fill).
 *
 * Why generate code: an interpreter reads `source[field.name]` and writes `out[field.key]` with
 * names that change from field to field, so every such read and write site sees every field of
 * every type (V8's slowest, megamorphic access). Generated code has a read and a write site per
 * field with a constant name, and an object shape per selection, which is what graphql-jit
 * gains most of its speed from. The builder takes only the common path: a value that needs more
 * (missing where non-null, a function or promise, a serializer that throws or returns nothing)
 * makes it return `undefined`, and the executor completes that object field by field as before,
 * with its errors, paths and null propagation (a property getter then runs twice).
 *
 * Where code may not be generated (`mayCompile`: a Content-Security-Policy without
 * 'unsafe-eval', Cloudflare Workers, zod's `jitless`), there are no builders and every object
 * goes the field-by-field way.
 */
import { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString, type GraphQLLeafType } from 'graphql';
import { mayCompile } from '../er/model.js';
import type { FieldPlan, ObjectBuilder } from './plan.js';

/**
 * The built-in scalars' common values, which their `serialize` returns unchanged: tested inline,
 * the call (and its object and string checks) is left for the rest. A tenth of a small
 * operation's completion was these calls (issue 31.1). Keyed by the type object, not its name:
 * a schema's own scalar called `Int` serializes as it says.
 */
const PASSTHROUGH = new Map<GraphQLLeafType, (v: string) => string>([
  [GraphQLInt, (v) => `typeof ${v} === 'number' && (${v} | 0) === ${v}`],
  [GraphQLFloat, (v) => `typeof ${v} === 'number' && Number.isFinite(${v})`],
  [GraphQLString, (v) => `typeof ${v} === 'string'`],
  [GraphQLID, (v) => `typeof ${v} === 'string'`],
  [GraphQLBoolean, (v) => `typeof ${v} === 'boolean'`],
]);

const isFast = (field: FieldPlan) => field.kind === 'typename' || (field.kind === 'property' && field.completion.kind === 'leaf');

/** The builder of a selection with `fields`, or undefined when none of them is fast. */
export function objectBuilder(fields: readonly FieldPlan[]): ObjectBuilder | undefined {
  if (!mayCompile() || !fields.some(isFast) || fields.some((f) => f.key === '__proto__')) return undefined;
  const types: GraphQLLeafType[] = [];
  const lines: string[] = [];
  const props: [key: string, value: string][] = [];
  let values = 0;
  for (const field of fields) {
    const key = JSON.stringify(field.key);
    if (field.kind === 'typename') {
      props.push([key, JSON.stringify(field.parentType.name)]);
    } else if (isFast(field)) {
      const i = types.length;
      const type = (field.completion as { type: GraphQLLeafType }).type;
      types.push(type);
      values++;
      const passes = PASSTHROUGH.get(type)?.(`v${i}`);
      const read = `const v${i} = source[${JSON.stringify(field.name)}];`;
      const slow = [
        // A function is a method (called with arguments), a thenable arrives later: both slow.
        `if (typeof v${i} === 'function' || (typeof v${i} === 'object' && v${i} !== null && typeof v${i}.then === 'function')) return undefined;`,
        `s${i} = t${i}.serialize(v${i}); if (s${i} == null) return undefined;`,
      ].join(' ');
      const rest = field.completion.nonNull ? `if (v${i} == null) return undefined; ${slow}` : `if (v${i} != null) { ${slow} }`;
      lines.push(read, `let s${i} = null;`, passes ? `if (${passes}) s${i} = v${i}; else { ${rest} }` : rest);
      props.push([key, `s${i}`]);
    } else {
      props.push([key, 'null']);
    }
  }
  // A wrong-typed value (a string where an object belongs) goes field by field, like graphql-js's
  // default resolver, which reads no property of a primitive (`'abc'.length`).
  const guard = `if (typeof source !== 'object' && typeof source !== 'function') return undefined;`;
  // The object comes from a constructor per selection, not a literal: V8 moves the allocation
  // site of a literal to the old generation once a scavenge finds nearly all its objects alive (an
  // operation's response objects, when one lands inside a large operation), and from there the
  // dead responses of finished operations keep what they point to alive through every scavenge
  // until a full collection: 1,000 roots × depth 3 ran at 12-13 ms instead of 2-3 (issue 31.1).
  // Objects made by `new` have no allocation site. Its prototype is Object's, as a literal's.
  const body = [
    `function Out(${types.map((_, i) => `s${i}`).join(', ')}) { ${props.map(([key, value]) => `this[${key}] = ${value};`).join(' ')} }`,
    'Out.prototype = Object.prototype;',
    `return function build(source) {\n${guard}\ntry {\n${lines.join('\n')}\nreturn new Out(${types.map((_, i) => `s${i}`).join(', ')});\n} catch { return undefined; }\n};`,
  ].join('\n');
  const build = new Function(...types.map((_, i) => `t${i}`), body)(...types) as ObjectBuilder['build'];
  // Its own function per selection (not a shared loop calling `build`): the call below sees one
  // target, and V8 inlines it. A shared loop's site saw every selection's builder and went
  // megamorphic in a server with many documents (100 roots × depth 2 took 22% longer once other
  // documents had run; issue 31.1).
  const buildAll = new Function(
    'build',
    `return function buildAll(items, list, from) {
  for (let i = from; i < items.length; i++) {
    const v = items[i];
    if (v === null || v === undefined || (typeof v === 'object' && typeof v.then === 'function')) return i;
    const built = build(v);
    if (built === undefined) return i;
    list[i] = built;
  }
  return items.length;
};`,
  )(build) as ObjectBuilder['buildAll'];
  return { build, buildAll, values, rest: fields.filter((f) => !isFast(f)) };
}
