/**
 * The edits that keep a file's ergraph imports right after a transform renamed, added or stopped
 * using exports (what `readErgraphImports` read): bindings dropped once unused, renamed, moved to
 * the entry point v6 exports them from, and new ones added in the file's own style.
 */
import { lineStartOf, type FileChanges } from './changes.js';
import { coveredBy } from '../../compat/v6-form/edits.js';
import { referencesTo, type ErgraphImports, type NamedBinding } from './ergraph-imports.js';
import { ts } from './parse.js';
import { requiredModule } from './project.js';
import { ROOT, V6_ENTRY } from './v6-exports.js';

function lineRange(source: string, start: number, end: number): { start: number; end: number } | undefined {
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const newline = source.indexOf('\n', end);
  const lineEnd = newline === -1 ? source.length : newline + 1;
  const before = source.slice(lineStart, start);
  const after = source.slice(end, newline === -1 ? source.length : newline);
  return /^\s*$/.test(before) && /^\s*,?\s*$/.test(after) ? { start: lineStart, end: lineEnd } : undefined;
}

/**
 * The range that removes one element of a comma-separated list together with its comma: whole
 * lines when the element sits on lines of its own, else the element and the comma beside it.
 */
export function removalRange(
  source: string,
  elements: readonly ts.Node[],
  index: number,
  sf: ts.SourceFile,
): { start: number; end: number } {
  const el = elements[index];
  const start = el.getStart(sf);
  const end = el.getEnd();
  const ownLines = lineRange(source, start, end);
  if (ownLines) return ownLines;
  const next = elements[index + 1];
  if (next) return { start, end: next.getStart(sf) };
  const prev = elements[index - 1];
  if (prev) return { start: prev.getEnd(), end };
  return { start, end };
}

/** Removes the `removed` members of a list; the whole statement when nothing would be left (then true). */
function removeFromList(ch: FileChanges, statement: ts.Node, elements: readonly ts.Node[], removed: ReadonlySet<ts.Node>, keepsOther: boolean): boolean {
  const { sf, source } = ch;
  const gone = elements.filter((s) => removed.has(s));
  if (gone.length === 0) return false;
  if (gone.length === elements.length && !keepsOther) {
    const whole = lineRange(source, statement.getStart(sf), statement.getEnd());
    ch.replace(whole ?? statement, '');
    return true;
  }
  const indices = elements.map((s, i) => (removed.has(s) ? i : -1)).filter((i) => i >= 0);
  const ranges = indices.map((i) => {
    const own = lineRange(source, elements[i].getStart(sf), elements[i].getEnd());
    if (own) return own;
    // A run of neighbours goes with one comma: up to the next survivor, or from the previous one.
    let j = i;
    while (j + 1 < elements.length && removed.has(elements[j + 1])) j++;
    let k = i;
    while (k > 0 && removed.has(elements[k - 1])) k--;
    const next = elements[j + 1];
    if (next) return { start: elements[i].getStart(sf), end: next.getStart(sf) };
    const prev = elements[k - 1];
    return prev ? { start: prev.getEnd(), end: elements[i].getEnd() } : { start: elements[i].getStart(sf), end: elements[i].getEnd() };
  });
  mergeRanges(ranges).forEach((r) => ch.replace(r, ''));
  return false;
}

function listOf(binding: NamedBinding): { statement: ts.Node; elements: readonly ts.Node[]; keepsOther: boolean } | undefined {
  if (ts.isImportSpecifier(binding.specifier)) {
    const decl = binding.declaration as ts.ImportDeclaration;
    return { statement: decl, elements: (decl.importClause!.namedBindings as ts.NamedImports).elements, keepsOther: !!decl.importClause?.name };
  }
  const pattern = binding.specifier.parent;
  const stmt = binding.declaration as ts.VariableStatement;
  return ts.isObjectBindingPattern(pattern) ? { statement: stmt.declarationList.declarations.length === 1 ? stmt : pattern.parent, elements: pattern.elements, keepsOther: false } : undefined;
}

export interface ImportFixes {
  /** Old exports whose binding goes once no use is left outside replaced text. */
  drop?: readonly string[];
  /** Old export → its v6 name, for the file's own re-exports (`export { LoaderDepend as depend } from 'ergraph'`). */
  rename?: Readonly<Record<string, string>>;
  /** Re-exports of these old names go (their users in the run import the replacement directly). */
  removeReExports?: readonly string[];
  /** Move imports and re-exports of names v6 exports from another entry point (`AutoQueryConfig` → `ergraph/orm`). */
  relocate?: boolean;
}

/**
 * Final import edits of a transform: renames recorded in `renamed`, bindings of `drop` exports
 * whose local name is no longer referenced outside replaced text, the file's own re-exports of
 * old names, names imported from the wrong entry point, and `added` exports (placed where a
 * dropped binding was, else appended to an import of their entry point, else on a new line).
 */
export function fixImports(ch: FileChanges, imports: ErgraphImports, fixes: ImportFixes | readonly string[] = {}): void {
  const { drop = [], rename = {}, removeReExports = [], relocate = false } = Array.isArray(fixes) ? { drop: fixes as readonly string[] } : (fixes as ImportFixes);
  const { sf, source } = ch;
  const entryOf = (name: string) => V6_ENTRY[name] ?? ROOT;
  const has = (name: string) => imports.named.some((b) => b.imported === name && b.local === name && !b.typeOnly);
  const toAdd = [...imports.added].filter((name) => !has(name));
  const removed = new Set<ts.Node>();
  const moved = new Map<string, string[]>();
  const movedWhole = new Set<ts.ImportDeclaration>();
  for (const binding of imports.named) {
    const detached = imports.detached.get(binding.specifier);
    if (detached && ts.isImportSpecifier(binding.specifier)) {
      removed.add(binding.specifier);
      const entry = entryOf(detached);
      moved.set(entry, [...(moved.get(entry) ?? []), `${binding.typeOnly ? 'type ' : ''}${detached} as ${binding.local}`]);
      ch.note(binding.specifier, `'${binding.module}' is not known to export ${detached} (the v6 name of ${binding.imported}): imported from '${entry}' as ${binding.local} instead`);
      continue;
    }
    const rename = imports.renamed.get(binding.specifier);
    if (rename) {
      if (binding.specifier.propertyName) ch.replace(binding.specifier.propertyName, rename);
      continue;
    }
    if (drop.includes(binding.imported)) {
      const live = referencesTo(sf, binding.local).some((id) => !coveredBy(ch.edits, id.getStart(sf)));
      if (live) continue;
      // A dropped binding's place takes an added name of the same entry point, keeping the import's shape.
      const index = toAdd.findIndex((n) => imports.reaches(binding.module, n));
      if (index >= 0 && ts.isImportSpecifier(binding.specifier)) {
        const [replacement] = toAdd.splice(index, 1);
        ch.replace(binding.specifier, `${binding.specifier.isTypeOnly ? 'type ' : ''}${replacement}`);
      } else removed.add(binding.specifier);
      continue;
    }
    // An import from an entry point v6 does not export the name from moves to the one that does:
    // the whole declaration when all of it goes to one place, else the one specifier.
    if (relocate && binding.direct && V6_ENTRY[binding.imported] && entryOf(binding.imported) !== binding.module && ts.isImportSpecifier(binding.specifier)) {
      const decl = binding.declaration as ts.ImportDeclaration;
      const elements = (decl.importClause!.namedBindings as ts.NamedImports).elements;
      const entry = entryOf(binding.imported);
      const whole = !decl.importClause?.name && elements.every((e) => V6_ENTRY[(e.propertyName ?? e.name).text] && entryOf((e.propertyName ?? e.name).text) === entry);
      if (whole) {
        if (!movedWhole.has(decl)) {
          movedWhole.add(decl);
          const quote = source.charAt(decl.moduleSpecifier.getStart(sf));
          ch.replace(decl.moduleSpecifier, `${quote}${entry}${quote}`);
        }
        ch.note(binding.specifier, `import of ${binding.imported} moved from '${binding.module}' to '${entry}', where v6 exports it`);
        continue;
      }
      removed.add(binding.specifier);
      const text = binding.specifier.getText(sf).replace(/^type\s+/, '');
      moved.set(entry, [...(moved.get(entry) ?? []), `${binding.typeOnly ? 'type ' : ''}${text}`]);
      ch.note(binding.specifier, `import of ${binding.imported} moved from '${binding.module}' to '${entry}', where v6 exports it`);
    }
  }
  // The file's own re-exports of ergraph names.
  const removedExports = new Set<ts.Node>();
  const movedExports = new Map<string, string[]>();
  for (const re of imports.reExports) {
    const next = rename[re.imported];
    if (next) {
      const exported = re.specifier.name.text;
      ch.replace(re.specifier, exported === re.imported ? `${next} as ${exported}` : `${next} as ${exported}`);
      ch.note(re.specifier, `re-export of ${re.imported} now re-exports ${next} (v6 name) as ${exported}`);
    } else if ((drop.includes(re.imported) && !V6_ENTRY[re.imported]) || removeReExports.includes(re.imported)) {
      // A re-export is the module's public API: only names v6 no longer has go with unused imports.
      removedExports.add(re.specifier);
      ch.note(re.specifier, `re-export of ${re.imported} removed: v6 has no such export, and its users in this run were migrated`);
    } else if (relocate && V6_ENTRY[re.imported] && entryOf(re.imported) !== re.module) {
      removedExports.add(re.specifier);
      const entry = entryOf(re.imported);
      movedExports.set(entry, [...(movedExports.get(entry) ?? []), re.specifier.getText(sf)]);
    }
  }
  const lists = new Map<ts.Node, NonNullable<ReturnType<typeof listOf>>>();
  for (const binding of imports.named) {
    const list = removed.has(binding.specifier) ? listOf(binding) : undefined;
    if (list) lists.set(list.statement, list);
  }
  const goneStatements = new Set<ts.Node>();
  for (const list of lists.values()) if (removeFromList(ch, list.statement, list.elements, removed, list.keepsOther)) goneStatements.add(list.statement);
  for (const decl of new Set(imports.reExports.map((r) => r.declaration))) {
    const clause = decl.exportClause as ts.NamedExports;
    removeFromList(ch, decl, clause.elements, removedExports, false);
  }
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const extra: string[] = [];
  for (const [entry, texts] of movedExports) extra.push(`export { ${texts.join(', ')} } from '${entry}';`);
  for (const [entry, texts] of moved) {
    const fromAdded = toAdd.filter((n) => entryOf(n) === entry);
    for (const n of fromAdded) toAdd.splice(toAdd.indexOf(n), 1);
    extra.push(importLine(imports, [...texts, ...fromAdded], entry));
  }
  // Remaining added names: appended to an import of their entry point, else to one of the
  // project's barrels (or path aliases) that exports them, else a new statement.
  const appendable = (d: ts.ImportDeclaration) => {
    const b = d.importClause?.namedBindings;
    return !!b && ts.isNamedImports(b) && !d.importClause?.isTypeOnly && b.elements.some((s) => !removed.has(s));
  };
  const barrels = [...new Set(imports.named.filter((b) => !b.direct && ts.isImportDeclaration(b.declaration)).map((b) => b.declaration as ts.ImportDeclaration))];
  const byTarget = new Map<ts.ImportDeclaration | string, string[]>();
  for (const name of toAdd) {
    const target =
      imports.declarations.find((d) => (d.moduleSpecifier as ts.StringLiteral).text === entryOf(name) && appendable(d)) ??
      barrels.find((d) => appendable(d) && imports.reaches((d.moduleSpecifier as ts.StringLiteral).text, name)) ??
      entryOf(name);
    byTarget.set(target, [...(byTarget.get(target) ?? []), name]);
  }
  for (const [target, names] of byTarget) {
    const entry = typeof target === 'string' ? target : (target.moduleSpecifier as ts.StringLiteral).text;
    const named = typeof target === 'string' ? undefined : target.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) {
      const kept = named.elements.filter((s) => !removed.has(s));
      const last = kept[kept.length - 1];
      const multiline = source.slice(named.getStart(sf), named.getEnd()).includes('\n');
      const indent = multiline ? (/^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', last.getStart(sf)) + 1))?.[0] ?? '  ') : '';
      const sep = multiline ? `,${eol}${indent}` : ', ';
      ch.insert(last.getEnd(), names.map((n) => `${sep}${n}`).join(''));
      continue;
    }
    const pattern = imports.commonJs ? requirePattern(imports, entry, removed) : undefined;
    if (pattern) {
      const kept = pattern.elements.filter((e) => !removed.has(e));
      ch.insert(kept[kept.length - 1].getEnd(), names.map((n) => `, ${n}`).join(''));
      continue;
    }
    extra.push(importLine(imports, names, entry));
  }
  if (extra.length === 0) return;
  const anchor = [...sf.statements].reverse().find((s) => ts.isImportDeclaration(s) || (imports.commonJs && ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => requiredModule(d.initializer))));
  // After the last import, or in its place when that one goes (inside the removed text an insertion would overlap it).
  if (anchor && goneStatements.has(anchor)) ch.insert(lineStartOf(source, anchor.getStart(sf)), extra.map((l) => `${l}${eol}`).join(''));
  else if (anchor) ch.insert(anchor.getEnd(), extra.map((l) => `${eol}${l}`).join(''));
  else ch.insert(leadingCommentsEnd(sf), extra.map((l) => `${l}${eol}`).join(''));
}

function importLine(imports: ErgraphImports, names: readonly string[], entry: string): string {
  if (imports.commonJs && imports.declarations.length === 0) return `const { ${names.map((n) => n.replace(/^type\s+/, '')).join(', ')} } = require('${entry}');`;
  return `import { ${names.join(', ')} } from '${entry}';`;
}

function requirePattern(imports: ErgraphImports, entry: string, removed: ReadonlySet<ts.Node>): ts.ObjectBindingPattern | undefined {
  for (const b of imports.named) {
    if (!b.direct || b.module !== entry || !ts.isBindingElement(b.specifier)) continue;
    const pattern = b.specifier.parent;
    if (ts.isObjectBindingPattern(pattern) && pattern.elements.some((e) => !removed.has(e))) return pattern;
  }
  return undefined;
}

/** Where a new first statement goes: after a shebang and the file's leading comment block. */
function leadingCommentsEnd(sf: ts.SourceFile): number {
  const first = sf.statements[0];
  if (!first) return 0;
  const start = first.getStart(sf);
  return sf.text.lastIndexOf('\n', start - 1) + 1;
}

function mergeRanges(ranges: { start: number; end: number }[]): { start: number; end: number }[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const r of sorted) {
    const prev = out[out.length - 1];
    if (prev && r.start <= prev.end) prev.end = Math.max(prev.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
