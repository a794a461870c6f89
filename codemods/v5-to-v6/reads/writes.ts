/**
 * Code that writes or inspects an operation's result in the v5 shape: Apollo's
 * `writeQuery({ query, data: { userGetAll: […] } })` (rewritten to `data: { User: { __typename,
 * userGetAll: […] } }`: the group's `__typename` too, or Apollo's cache, which adds `__typename` to
 * every selection, reads the written group back as missing), the data an updater returns
 * (`update-query.ts`), and `errors[].path` compared with a moved key (reported: the path now
 * starts with the group).
 */
import type { GraphQLSchema } from 'graphql';
import { getNamedType } from 'graphql';
import { ts } from '../../lib/parse.js';
import { keyText } from './patterns.js';
import type { Reads } from './types.js';

const isName = (text: string) => /^[A-Za-z_$][\w$]*$/.test(text);

/** The v6 type of a query group (`User` → `UserQuery`), from the schema the document was rewritten against. */
export function groupTypeOf(schema: GraphQLSchema | undefined): (group: string) => string | undefined {
  return (group) => {
    const field = schema?.getQueryType()?.getFields()[group];
    return field ? getNamedType(field.type).name : undefined;
  };
}

/** The quote the file writes strings with (its first import's), so new text reads like the old. */
export function quoteOf(sf: ts.SourceFile): string {
  const first = sf.statements.find(ts.isImportDeclaration);
  return first && sf.text[first.moduleSpecifier.getStart(sf)] === '"' ? '"' : "'";
}

/**
 * `writeQuery({ query, data })`: the `data` literal takes the v6 shape. Only keys change and a
 * group's braces are inserted around the values, which stay where they are: a value may hold
 * reads of its own that the read pass rewrites (`[...data.userGetAll, …]`).
 */
export function writeData(r: Reads, literal: ts.ObjectLiteralExpression, groupType: (group: string) => string | undefined): void {
  const prop = literal.properties.find((p) => keyText(p.name) === 'data');
  if (!prop) return;
  if (!ts.isPropertyAssignment(prop) || !ts.isObjectLiteralExpression(prop.initializer))
    return r.todo(prop, 'the data written is not an object literal here: write it in the v6 shape');
  writeDataLiteral(r, prop.initializer, groupType);
}

/**
 * Data in the v5 shape, written out as a literal, in the v6 shape. `spreads` names values that
 * hold this operation's data already in the v6 shape (an updater's `prev`): spread before the
 * moved keys (`{ ...prev, userGetAll: […] }`), each group then starts from theirs
 * (`User: { ...prev.User, __typename: 'UserQuery', userGetAll: […] }`), as the v5 spread kept the
 * fields the literal does not write. Any other spread may carry moved keys: marked.
 */
export function writeDataLiteral(r: Reads, data: ts.ObjectLiteralExpression, groupType: (group: string) => string | undefined, spreads: ReadonlySet<string> = new Set()): void {
  const { sf } = r;
  // The moved properties, in runs of neighbours going to the same group.
  const runs: { group: string; items: { p: ts.ObjectLiteralElementLike; key: string; leaf: string }[] }[] = [];
  const bases: string[] = [];
  let previousMoved = false;
  for (const p of data.properties) {
    if (ts.isSpreadAssignment(p)) {
      const name = ts.isIdentifier(p.expression) && spreads.has(p.expression.text) ? p.expression.text : undefined;
      if (!name || runs.length > 0) return r.todo(p, 'a spread in the data written may carry moved fields: write it in the v6 shape');
      bases.push(name);
      r.seen.add(p.expression);
      continue;
    }
    const key = keyText(p.name);
    if (key === undefined) return r.todo(p, 'a computed key in the data written may name a moved field');
    const to = r.moves.get(key);
    if (!to) {
      if (r.groups.has(key)) return r.todo(p, `\`${key}\` is now a v6 group this operation selects, not the v5 field written here`);
      previousMoved = false;
      continue;
    }
    if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) return r.todo(p, `\`${key}\` is written by a method or accessor: write it in the v6 shape`);
    const [group, leaf] = to as [string, string];
    const last = runs[runs.length - 1];
    if (previousMoved && last?.group === group) last.items.push({ p, key, leaf });
    else {
      if (runs.some((run) => run.group === group)) return r.todo(p, `the fields moving into \`${group}\` are not written next to each other: write the data in the v6 shape`);
      runs.push({ group, items: [{ p, key, leaf }] });
    }
    previousMoved = true;
  }
  if (runs.length === 0) return;
  const q = quoteOf(sf);
  for (const { group, items } of runs) {
    const type = groupType(group);
    if (!type) return r.todo(items[0]!.p, `the v6 type of \`${group}\` is not in the schema: write the data in the v6 shape`);
    const from = bases.map((base) => `...${base}.${group}, `).join('');
    items.forEach(({ p, key, leaf }, i) => {
      const name = ts.isShorthandPropertyAssignment(p) ? (leaf === key ? key : `${isName(leaf) ? leaf : JSON.stringify(leaf)}: ${key}`) : leaf === key ? p.name!.getText(sf) : isName(leaf) ? leaf : JSON.stringify(leaf);
      r.ch.replace(p.name!, i === 0 ? `${group}: { ${from}__typename: ${q}${type}${q}, ${name}` : name);
    });
    r.ch.insert(items[items.length - 1]!.p.getEnd(), ' }');
  }
  r.ch.note(data, `data written in the v6 shape: ${r.summary}`);
}

const COMPARISONS = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);
const PATH_METHODS = new Set(['includes', 'startsWith', 'indexOf', 'endsWith']);

/** String literals an error's `path` is compared with, in one walk per file: `e.path[0] === 'userGetAll'`, `path.join('.').startsWith('userGetAll')`. */
const pathLiterals = new WeakMap<ts.SourceFile, (ts.StringLiteral | ts.NoSubstitutionTemplateLiteral)[]>();
function pathLiteralsOf(sf: ts.SourceFile): (ts.StringLiteral | ts.NoSubstitutionTemplateLiteral)[] {
  let found = pathLiterals.get(sf);
  if (found) return found;
  pathLiterals.set(sf, (found = []));
  const list = found;
  const mentionsPath = (n: ts.Node) => /\bpath\b/.test(n.getText(sf));
  const visit = (n: ts.Node): void => {
    if (ts.isBinaryExpression(n) && COMPARISONS.has(n.operatorToken.kind)) {
      for (const [side, other] of [[n.left, n.right], [n.right, n.left]] as const)
        if (ts.isStringLiteralLike(side) && mentionsPath(other)) list.push(side);
    } else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && PATH_METHODS.has(n.expression.name.text) && mentionsPath(n.expression.expression)) {
      for (const arg of n.arguments) if (ts.isStringLiteralLike(arg)) list.push(arg);
    } else if (ts.isCaseClause(n) && ts.isStringLiteralLike(n.expression) && mentionsPath(n.parent.parent.expression)) list.push(n.expression);
    ts.forEachChild(n, visit);
  };
  if (/\bpath\b/.test(sf.text)) visit(sf);
  return list;
}

/** `errors[].path` compared with a moved key: in v6 the path starts with the group (`['User', 'userGetAll', …]`). */
const reported = new WeakSet<ts.Node>();
export function errorPaths(r: Reads): void {
  for (const literal of pathLiteralsOf(r.sf)) {
    // Once per literal, though several documents of the file move the key it names.
    if (reported.has(literal)) continue;
    const first = literal.text.split(/[.[/]/)[0]!;
    const to = r.moves.get(first);
    if (to) reported.add(literal), r.todo(literal, `an error's \`path\` is compared with \`${literal.text}\`: in v6 it starts with \`${to.join('.')}\``);
  }
}
