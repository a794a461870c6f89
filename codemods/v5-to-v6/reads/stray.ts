/**
 * Reads of a v5 root field off a `data` the read-site pass never reached: an Apollo link's or
 * graphql-request's response middleware, a handler given a result from elsewhere
 * (`(res) => res.data?.userGetAll`), TanStack Query's cache read or written by a query's key
 * (`getQueryData(key).userGetAll`, `setQueryData(key, { userGetAll })`). They belong to no
 * document, so nothing moves them, and on v6 they read `undefined` without a word: each is
 * marked, naming where the field is in v6.
 */
import type { GraphQLSchema } from 'graphql';
import { knownOf } from '../../../compat/v6-form/choose.js';
import type { FileChanges } from '../../lib/changes.js';
import { nodesOf } from '../../lib/nodes.js';
import { ts } from '../../lib/parse.js';
import { declarationFor, outer } from './scope.js';

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

/** `queryClient.getQueryData(key)` (TanStack Query), also `… ?? {}`: the cached data, found by its key, not its document. */
function isCachedData(node: ts.Node): boolean {
  let n = bare(node);
  if (ts.isBinaryExpression(n) && (n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || n.operatorToken.kind === ts.SyntaxKind.BarBarToken)) n = bare(n.left);
  return ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'getQueryData';
}

/** An object literal given to `setQueryData(key, …)` as the data, or returned by its updater. */
function isSetQueryData(literal: ts.Node): boolean {
  let value = literal;
  const fn = outer(value).parent;
  if (ts.isArrowFunction(fn) && fn.body === outer(value)) value = fn;
  const call = outer(value).parent;
  return ts.isCallExpression(call) && call.arguments[1] === outer(value) && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'setQueryData';
}

/** Why the place at `id` (a v5 root field's name) reads or writes data the run did not follow; undefined when it does not. */
function strayUse(id: ts.Identifier, flatName: string, v6: string): string | undefined {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === id && isParameterData(p.expression))
    return `\`data.${flatName}\` reads a v5 root field off a result the migration did not follow: a v6 answer holds it under its group, ${v6}; leave it only if this reads a v5 answer (the compat endpoint)`;
  const cached = `TanStack Query's cache holds the data as its \`queryFn\` resolved it, so in v6 \`${flatName}\` is under its group, ${v6}`;
  if (ts.isPropertyAccessExpression(p) && p.name === id && isCachedData(p.expression)) return `\`getQueryData(…).${flatName}\` reads the cached data in the v5 shape: ${cached}`;
  if (ts.isBindingElement(p) && (p.propertyName ?? p.name) === id && ts.isVariableDeclaration(p.parent.parent) && p.parent.parent.initializer && isCachedData(p.parent.parent.initializer))
    return `\`${flatName}\` is read from \`getQueryData(…)\` in the v5 shape: ${cached}`;
  if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name === id && isSetQueryData(p.parent))
    return `\`setQueryData\` writes \`${flatName}\` in the v5 shape: ${cached}`;
  return undefined;
}

/** `marked`: the lines the file's passes marked already (one marker a line says it); the lines marked here are added. */
export function markStrayReads(ch: FileChanges, schema: GraphQLSchema, marked: Set<number>): void {
  const { sf } = ch;
  const { index } = knownOf(schema);
  const edited = (node: ts.Node) => ch.edits.some((e) => e.start < node.getEnd() && e.end > node.getStart(sf));
  for (const [flatName, targets] of [...index.query, ...index.mutation]) {
    const target = targets[0];
    if (!target || !sf.text.includes(flatName)) continue;
    const v6 = `\`data.${target.entity}.${flatName}\` where the migration rewrote the document (it keeps \`${flatName}\` as the field's alias), \`data.${target.entity}.${target.method}\` in one written for v6`;
    for (const id of nodesOf(sf).identifiers(flatName)) {
      const why = strayUse(id, flatName, v6);
      if (!why || edited(id.parent)) continue;
      const line = sf.getLineAndCharacterOfPosition(id.parent.getStart(sf)).line;
      if (marked.has(line)) continue;
      marked.add(line);
      ch.manual(id.parent, why);
    }
  }
}
