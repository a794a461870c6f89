/**
 * The rewrites of reads of `data` itself: `data.userGetAll` → `data.User.userGetAll` (also
 * `?.` and `['userGetAll']`), and `const { userGetAll } = data` → `const { User: { userGetAll } } = data`.
 * Only the step under `data` changes: what lies below a moved key has the same shape in v6.
 */
import { ts } from '../../lib/parse.js';
import type { Reads } from './types.js';

/** A key written as a name or a plain string (`['userGetAll']` too); `undefined` for keys computed at run time (`[name]`). */
export function keyText(name: ts.Node | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return writtenKey(name.expression);
  return undefined;
}

/** The key an element access or a computed name writes out (`data['userGetAll']`, `[0]`); a name there is a variable's value, not a key. */
export function writtenKey(expr: ts.Expression): string | undefined {
  return ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr) || ts.isNumericLiteral(expr) ? expr.text : undefined;
}

export const isName = (text: string) => /^[A-Za-z_$][\w$]*$/.test(text);

/**
 * `access` reads `key` off `data`. Returns false when the key did not move (nothing to do) and
 * reports a clash when a v5 read names a key the v6 groups now use.
 */
export function rewriteAccess(r: Reads, access: ts.PropertyAccessExpression | ts.ElementAccessExpression, key: string, standIn = false): void {
  const to = r.moves.get(key);
  if (!to) {
    if (r.groups.has(key)) r.todo(access, `\`${key}\` is now a v6 group this operation selects, not the v5 field read here`);
    else if (r.open && key !== '__typename') r.todo(access, `\`data.${key}\` may come from a fragment whose fields moved`);
    return;
  }
  const [group, leaf] = to as [string, string];
  const { sf, ch } = r;
  // Off a stand-in (`(data ?? {}).userGetAll`) the group may be missing: v5 read `undefined` there.
  const hop = standIn ? '?.' : '.';
  if (ts.isPropertyAccessExpression(access)) {
    // Only the name changes; `data?.userGetAll` stays short-circuited by its own `?.`.
    ch.replace(access.name, `${group}${hop}${leaf}`);
    r.ch.note(access, `read moved: data.${key} → data.${to.join('.')}`);
    return;
  }
  const arg = access.argumentExpression;
  const quote = writtenKey(arg) !== undefined && !ts.isNumericLiteral(arg) ? sf.text[arg.getStart(sf)]! : "'";
  const leafText = leaf === key ? arg.getText(sf) : `${quote}${leaf}${quote}`;
  // `data['userGetAll']` → `data.User['userGetAll']`, `data?.['x']` → `data?.User['x']`.
  const opener = access.questionDotToken ? '?.' : '.';
  ch.replace({ start: access.expression.getEnd(), end: access.getEnd() }, `${opener}${group}${standIn ? '?.' : ''}[${leafText}]`);
  r.ch.note(access, `read moved: data.${key} → data.${to.join('.')}`);
}

/** The element's text without its `key:` part: `people = []` of `userGetAll: people = []`. */
function valueText(sf: ts.SourceFile, element: ts.BindingElement): string {
  return sf.text.slice(element.name.getStart(sf), element.getEnd());
}

/**
 * `const { userGetAll, me: user, __typename } = data` →
 * `const { User: { userGetAll, byId: user }, __typename } = data` (keys that did not move stay
 * where they are; the groups take the place of the first key that moved into them).
 */
export function rewriteDataPattern(r: Reads, pattern: ts.ObjectBindingPattern, standIn = false): void {
  const { sf } = r;
  // Of a stand-in (`= data ?? {}`) each group pattern gets its own `= {}`, or it would throw.
  const grouped = new Grouped(standIn ? ' = {}' : '');
  const parts = grouped.parts;
  let moved = false;
  for (const element of pattern.elements) {
    if (element.dotDotDotToken) return r.todo(element, 'a rest element collects the v6 groups, not the v5 fields');
    const key = keyText(element.propertyName ?? element.name);
    if (key === undefined) return r.todo(element, 'a computed key may name a moved field');
    const to = r.moves.get(key);
    if (!to) {
      if (r.groups.has(key)) return r.todo(element, `\`${key}\` is now a v6 group this operation selects, not the v5 field read here`);
      if (r.open && key !== '__typename') return r.todo(element, `\`${key}\` may come from a fragment whose fields moved`);
      parts.push(element.getText(sf));
      continue;
    }
    moved = true;
    const [group, leaf] = to as [string, string];
    const value = valueText(sf, element);
    const shorthand = !element.propertyName && leaf === key;
    const item = shorthand ? value : `${isName(leaf) ? leaf : JSON.stringify(leaf)}: ${value}`;
    grouped.add(group, item);
  }
  if (!moved) return;
  const text = grouped.texts(', ');
  const written = pattern.getText(sf);
  let replacement: string;
  if (written.includes('\n')) {
    const lineStart = sf.text.lastIndexOf('\n', pattern.elements[0]!.getStart(sf)) + 1;
    const indent = /^[ \t]*/.exec(sf.text.slice(lineStart))![0];
    const closeStart = sf.text.lastIndexOf('\n', pattern.getEnd() - 1) + 1;
    const closeIndent = /^[ \t]*/.exec(sf.text.slice(closeStart))![0];
    const eol = sf.text.includes('\r\n') ? '\r\n' : '\n';
    const trailing = /,\s*}$/.test(written) ? ',' : '';
    replacement = `{${eol}${indent}${text.join(`,${eol}${indent}`)}${trailing}${eol}${closeIndent}}`;
  } else replacement = `{ ${text.join(', ')} }`;
  r.ch.replace(pattern, replacement);
  r.ch.note(pattern, `read moved: ${r.summary}`);
}

/**
 * A type written for the v5 data, in the v6 shape: `(d: { userGetAll: U[]; n: number })` →
 * `(d: { User: { userGetAll: U[] }; n: number })`, and the same for an interface's members
 * (`interface UsersData { userGetAll: U[] }`, `reads/result-types.ts`). Members are edited in
 * place, so a type over several lines keeps its layout and comments: each v6 group is written
 * where its first moved member was, and takes the group's other members from where they were.
 * True when something moved.
 */
export function rewriteDataType(r: Reads, type: ts.TypeLiteralNode | ts.InterfaceDeclaration): boolean {
  const { sf } = r;
  const groups = new Map<string, { first: ts.TypeElement; items: string[]; rest: ts.TypeElement[]; lineComment: boolean }>();
  const members = type.members;
  const eol = sf.text.includes('\r\n') ? '\r\n' : '\n';
  /** Where a later member's own text begins: after the comments that end the line of the member before it (they stay there); on the same line, every comment between is the member's. */
  const ownStart = (member: ts.TypeElement) => {
    const before = members[members.indexOf(member) - 1]!.getEnd();
    if (!sf.text.slice(before, member.getStart(sf)).includes('\n')) return before;
    return ts.getTrailingCommentRanges(sf.text, before)?.at(-1)?.end ?? before;
  };
  for (const member of type.members) {
    const key = keyText(member.name);
    const to = key === undefined ? undefined : r.moves.get(key);
    if (!to || !ts.isPropertySignature(member)) {
      if (key === undefined ? !ts.isPropertySignature(member) || r.open : r.moves.has(key) || r.groups.has(key))
        return r.todo(member, 'this member of the type written for the v5 result may name a moved field: write it in the v6 shape'), false;
      continue;
    }
    const text = member.getText(sf).replace(/[;,]$/, '');
    const [group, leaf] = to as [string, string];
    const item = leaf === key ? text : `${isName(leaf) ? leaf : JSON.stringify(leaf)}${sf.text.slice(member.name.getEnd(), member.getStart(sf) + text.length)}`;
    const known = groups.get(group);
    if (!known) {
      groups.set(group, { first: member, items: [item], rest: [], lineComment: false });
      continue;
    }
    // A later member goes into the group with the comments written above it.
    const at = member.getFullStart();
    const comments = [...(ts.getTrailingCommentRanges(sf.text, at) ?? []), ...(ts.getLeadingCommentRanges(sf.text, at) ?? [])].filter((c) => c.pos >= ownStart(member));
    known.lineComment ||= comments.some((c) => c.kind === ts.SyntaxKind.SingleLineCommentTrivia);
    known.items.push([...comments.map((c) => sf.text.slice(c.pos, c.end)), item].join('\0'));
    known.rest.push(member);
  }
  if (groups.size === 0) return false;
  for (const [group, { first, items, rest, lineComment }] of groups) {
    const start = first.getStart(sf);
    // A `//` comment ends its line: a group holding one is written over several lines.
    const indent = /^[ \t]*/.exec(sf.text.slice(sf.text.lastIndexOf('\n', start) + 1))![0];
    const text = lineComment
      ? `{${eol}${items.map((i) => `${indent}  ${i.split('\0').join(`${eol}${indent}  `)}`).join(`;${eol}`)};${eol}${indent}}`
      : `{ ${items.map((i) => i.split('\0').join(' ')).join('; ')} }`;
    r.ch.replace({ start, end: start + first.getText(sf).replace(/[;,]$/, '').length }, `${group}: ${text}`);
    for (const member of rest) r.ch.replace({ start: ownStart(member), end: member.getEnd() }, '');
  }
  r.ch.note(type, `type written in the v6 shape: ${r.summary}`);
  return true;
}

/** The members of a pattern or type literal in order, each v6 group written where its first moved member was. */
class Grouped {
  readonly parts: string[] = [];
  private readonly groups = new Map<string, string[]>();

  constructor(private readonly initializer = '') {}

  add(group: string, item: string): void {
    const items = this.groups.get(group);
    if (items) items.push(item);
    else {
      this.groups.set(group, [item]);
      this.parts.push(`\0${group}`);
    }
  }

  texts(separator: string): string[] {
    return this.parts.map((p) => (p.startsWith('\0') ? `${p.slice(1)}: { ${this.groups.get(p.slice(1))!.join(separator)} }${this.initializer}` : p));
  }
}
