/**
 * A query of a schema that runs as it stands, for GraphiQL to open with when the app gives none:
 * a newcomer presses run before reading anything. It follows root fields that need no argument
 * down to an object with scalar fields (`{ User { getAll(limit: 3) { id name } } }` for ergraph's
 * grouped roots) and selects a few of them; a `limit` argument is given a small value so the first
 * answer stays short.
 */
import { getNamedType, isLeafType, isObjectType, isRequiredArgument, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from 'graphql';

const LEAVES = 6;
const DEPTH = 4;

const callable = (field: GraphQLField<unknown, unknown>) => field.args.every((arg) => !isRequiredArgument(arg));

function call(field: GraphQLField<unknown, unknown>): string {
  const limit = field.args.find((arg) => arg.name === 'limit' && getNamedType(arg.type).name === 'Int');
  return limit ? `${field.name}(limit: 3)` : field.name;
}

/**
 * The root and the level below it (ergraph's entity groups) lead to an object when they can —
 * `User { getAll { … } }` shows more than `User { count }`; below, an object's scalars are enough.
 */
function selection(type: GraphQLObjectType, depth: number): string[] | undefined {
  const fields = Object.values(type.getFields()).filter(callable);
  const nested = () => {
    for (const field of depth > 0 ? fields : []) {
      const named = getNamedType(field.type);
      const inner = isObjectType(named) ? selection(named, depth - 1) : undefined;
      if (inner) return [`${call(field)} {`, ...inner.map((line) => `  ${line}`), '}'];
    }
    return undefined;
  };
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type))).slice(0, LEAVES);
  const preferred = depth >= DEPTH - 1 ? nested() : undefined;
  return preferred ?? (leaves.length > 0 ? leaves.map((f) => f.name) : nested());
}

/** The query, with a comment saying what it is; undefined when the schema has none to offer. */
export function sampleQuery(schema: GraphQLSchema): string | undefined {
  const root = schema.getQueryType();
  const lines = root && selection(root, DEPTH);
  if (!lines) return undefined;
  return `# A query of this schema: press the run button (or Ctrl-Enter).\n# The Docs and Explorer panes list every field.\n{\n${lines.map((l) => `  ${l}`).join('\n')}\n}\n`;
}
