/**
 * Reads of a v5 root field off a `data` the read-site pass never reached: an Apollo link's or
 * graphql-request's response middleware, a handler given a result from elsewhere
 * (`(res) => res.data?.userGetAll`). They belong to no document, so nothing moves them, and on v6 they read
 * `undefined` without a word: each is marked, naming where the field is in v6.
 */
import type { GraphQLSchema } from 'graphql';
import { knownOf } from '../../../compat/v6-form/choose.js';
import type { FileChanges } from '../../lib/changes.js';
import { nodesOf } from '../../lib/nodes.js';
import { ts } from '../../lib/parse.js';
import { declarationFor } from './scope.js';

const bare = (node: ts.Node): ts.Node => {
  let n = node;
  while (ts.isNonNullExpression(n) || ts.isParenthesizedExpression(n) || ts.isAsExpression(n)) n = n.expression;
  return n;
};

/**
 * `res.data` (also `res?.data`, `(res as any).data!`) where `res` is a parameter: a value handed in
 * from outside the function, which no document's flow reached (a flow that reached it rewrote the
 * read). Held in a variable of the function instead, the value came from a call there, which the
 * pass followed or marked where the document goes in: marking its reads too would say it twice.
 */
function isParameterData(node: ts.Node): boolean {
  const data = bare(node);
  if (!ts.isPropertyAccessExpression(data) || data.name.text !== 'data') return false;
  const holder = bare(data.expression);
  if (!ts.isIdentifier(holder)) return false;
  const declared = declarationFor(holder);
  return !!declared && !!ts.findAncestor(declared, ts.isParameter);
}

/** `marked`: the lines the file's passes marked already (one marker a line says it); the lines marked here are added. */
export function markStrayReads(ch: FileChanges, schema: GraphQLSchema, marked: Set<number>): void {
  const { sf } = ch;
  const { index } = knownOf(schema);
  const edited = (node: ts.Node) => ch.edits.some((e) => e.start < node.getEnd() && e.end > node.getStart(sf));
  for (const flat of [...index.query, ...index.mutation]) {
    const [flatName, targets] = flat;
    const target = targets[0];
    if (!target || !sf.text.includes(flatName)) continue;
    for (const id of nodesOf(sf).identifiers(flatName)) {
      const access = id.parent;
      if (!ts.isPropertyAccessExpression(access) || access.name !== id || !isParameterData(access.expression) || edited(access)) continue;
      const line = sf.getLineAndCharacterOfPosition(access.getStart(sf)).line;
      if (marked.has(line)) continue;
      marked.add(line);
      ch.manual(
        access,
        `\`data.${flatName}\` reads a v5 root field off a result the migration did not follow: a v6 answer holds it under its group, \`data.${target.entity}.${flatName}\` where the migration rewrote the document (it keeps \`${flatName}\` as the field's alias), \`data.${target.entity}.${target.method}\` in one written for v6; leave it only if this reads a v5 answer (the compat endpoint)`,
      );
    }
  }
}
