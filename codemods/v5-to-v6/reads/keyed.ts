/**
 * Reads of the operation's data by a computed key: `data[key]` where `key` can only be some literal
 * names (`keys.ts`), and `'userGetAll' in data`. Rewritten to the v6 paths when every name is
 * known, marked otherwise: a key the pass cannot list may name a field that moved.
 */
import { ts } from '../../lib/parse.js';
import { isName, rewriteAccess } from './patterns.js';
import { outer } from './scope.js';
import type { Reads } from './types.js';
import { quoteOf } from './writes.js';

/** An object read twice does the same: a name, `this`, or a chain of member names off one. */
function readTwiceSafely(e: ts.Expression): boolean {
  if (ts.isIdentifier(e) || e.kind === ts.SyntaxKind.ThisKeyword) return true;
  if (ts.isPropertyAccessExpression(e) || ts.isNonNullExpression(e) || ts.isParenthesizedExpression(e)) return readTwiceSafely(e.expression);
  return false;
}

/** Written to, not read: `data[key] = …`, `data[key]++`, `delete data[key]`. */
function isWritten(node: ts.Node): boolean {
  const p = node.parent;
  if (ts.isBinaryExpression(p) && p.left === node && p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return true;
  return ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p) || ts.isDeleteExpression(p);
}

/** Why a computed read whose key can be any of `keys` cannot be rewritten, or undefined when it can (nothing moved counts). */
function keyedProblem(r: Reads, access: ts.ElementAccessExpression, keys: readonly string[]): string | undefined {
  const clash = keys.find((k) => r.groups.has(k));
  if (clash) return `\`${clash}\` is now a v6 group this operation selects, not the v5 field read here`;
  if (r.open && keys.some((k) => !r.moves.has(k) && k !== '__typename')) return `\`data[${access.argumentExpression.getText(r.sf)}]\` may name a field of a fragment whose fields moved`;
  return undefined;
}

/**
 * `data[key]` where `key` can only be one of `keys` (`keys.ts`): `data.User[key]` when each moves
 * into one group under its own name; else `(key === 'userGetAll' ? data.User.userGetAll : data.Task.taskGetAll)`,
 * each key that did not move read as before in the last branch. A key the pass cannot list, a
 * write, an object read twice with effects, or a conditional that would cut an optional chain
 * short, gets a marker.
 */
export function rewriteKeyedAccess(r: Reads, access: ts.ElementAccessExpression, keys: readonly string[] | undefined, standIn = false): void {
  const argText = access.argumentExpression.getText(r.sf);
  if (!keys) return r.todo(access, `a computed read of the operation's data: \`${argText}\` may name a moved field`);
  const problem = keyedProblem(r, access, keys);
  if (problem) return r.todo(access, problem);
  const moved = keys.filter((k) => r.moves.has(k));
  if (moved.length === 0) return;
  const group = r.moves.get(moved[0]!)![0]!;
  // One key, or one group with each key its own leaf: only the step under `data` changes.
  if (keys.length === 1) return rewriteAccess(r, access, moved[0]!, standIn);
  if (moved.length === keys.length && moved.every((k) => r.moves.get(k)![0] === group && r.moves.get(k)![1] === k)) return rewriteAccess(r, access, moved[0]!, standIn);
  if (isWritten(outer(access))) return r.todo(access, `a write through a computed key: \`${argText}\` may name a moved field`);
  const object = access.expression;
  const continues = (access.flags & ts.NodeFlags.OptionalChain) !== 0 && isChained(access);
  if (!readTwiceSafely(object) || !ts.isIdentifier(access.argumentExpression) || continues)
    return r.todo(access, `a computed read of the operation's data: \`${argText}\` can be ${keys.map((k) => `\`${k}\``).join(' or ')}, each read elsewhere in v6`);
  const q = quoteOf(r.sf);
  const opener = access.questionDotToken ? '?.' : '.';
  const objectText = object.getText(r.sf);
  const readOf = (k: string) => {
    const [g, leaf] = r.moves.get(k) as [string, string];
    const hop = standIn ? '?.' : isName(leaf) ? '.' : '';
    return `${objectText}${opener}${g}${hop}${isName(leaf) ? leaf : `[${JSON.stringify(leaf)}]`}`;
  };
  const unmoved = keys.length > moved.length;
  const branches = moved.slice(0, unmoved ? moved.length : moved.length - 1).map((k) => `${argText} === ${`${q}${k}${q}`} ? ${readOf(k)} : `);
  const last = unmoved ? access.getText(r.sf) : readOf(moved[moved.length - 1]!);
  r.ch.replace(access, `(${branches.join('')}${last})`);
  r.ch.note(access, `read moved: ${moved.map((k) => `data.${k} → data.${r.moves.get(k)!.join('.')}`).join(', ')}`);
}

/**
 * `'userGetAll' in data` → `('User' in data && 'userGetAll' in data.User)`: the v6 data holds the
 * group, and the group the field. A key the pass cannot list is marked.
 */
export function rewriteIn(r: Reads, test: ts.BinaryExpression, keys: readonly string[] | undefined): void {
  const keyText = test.left.getText(r.sf);
  if (!keys) return r.todo(test, `\`in\` asks the operation's data for a key the migration cannot read (\`${keyText}\`); in v6 it holds the groups`);
  const clash = keys.find((k) => r.groups.has(k));
  if (clash) return r.todo(test, `\`${clash}\` is now a v6 group this operation selects, not the v5 field asked for here`);
  const moved = keys.filter((k) => r.moves.has(k));
  if (moved.length === 0) return;
  if (keys.length > 1) return r.todo(test, `\`in\` asks for ${keyText}, which can be ${keys.map((k) => `\`${k}\``).join(' or ')}: each lives in its group in v6`);
  if (!readTwiceSafely(test.right)) return r.todo(test, `\`in\` asks for \`${moved[0]}\`, which lives in \`${r.moves.get(moved[0]!)![0]}\` in v6`);
  const [group, leaf] = r.moves.get(moved[0]!) as [string, string];
  const data = test.right.getText(r.sf);
  const q = quoteOf(r.sf);
  r.ch.replace(test, `(${q}${group}${q} in ${data} && ${q}${leaf}${q} in ${data}.${group})`);
  r.ch.note(test, `read moved: data.${moved[0]} → data.${group}.${leaf}`);
}

/** A member, element or call goes on from `access` within the same chain. */
function isChained(access: ts.Node): boolean {
  const p = access.parent;
  return (ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p) || ts.isCallExpression(p)) && p.expression === access;
}
