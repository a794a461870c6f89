/**
 * v6 removed `toCamelCase` and `toGraphqlFieldName`; `groupTypeName(entity, suffix)` is what is
 * left. An unused import is dropped. A used one is replaced by `groupTypeName` and each use is
 * marked: what the call computed (a flat field name) has no single v6 equivalent, so a human
 * decides between `groupTypeName` and the plain entity and method names.
 */
import type { FileChanges } from '../lib/changes.js';
import { namespaceUses, readErgraphImports, referencesTo } from '../lib/ergraph-imports.js';
import { removalRange } from '../lib/import-fixes.js';
import { ts } from '../lib/parse.js';

const REMOVED = ['toCamelCase', 'toGraphqlFieldName'] as const;
const REPLACEMENT = 'groupTypeName';

/** The statement a use sits in: markers go above it, never inside a template spanning lines. */
function statementOf(node: ts.Node): ts.Node {
  let current = node;
  while (current.parent && !ts.isSourceFile(current.parent) && !ts.isBlock(current.parent) && !ts.isModuleBlock(current.parent) && !ts.isCaseClause(current.parent) && !ts.isDefaultClause(current.parent)) {
    current = current.parent;
  }
  return current;
}

function wholeLines(source: string, start: number, end: number): { start: number; end: number } {
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const newline = source.indexOf('\n', end);
  const onlyThis = /^\s*$/.test(source.slice(lineStart, start)) && /^\s*$/.test(source.slice(end, newline === -1 ? source.length : newline));
  return onlyThis ? { start: lineStart, end: newline === -1 ? source.length : newline + 1 } : { start, end };
}

export function rewriteNamingHelpers(ch: FileChanges): void {
  const { sf, source } = ch;
  // Every binding or use this reads names a helper in the text (aliases keep the imported name in
  // the import, namespace uses spell it): a file without either name needs no import read.
  if (!REMOVED.some((name) => source.includes(name))) return;
  const imports = readErgraphImports(sf);
  let replacementImported = imports.named.some((b) => b.imported === REPLACEMENT);
  const removed = new Set<ts.ImportSpecifier>();

  for (const binding of imports.named) {
    if (!(REMOVED as readonly string[]).includes(binding.imported)) continue;
    const uses = referencesTo(sf, binding.local);
    const reason = `${binding.imported} was removed in v6: use ${REPLACEMENT}(entity, suffix) or the entity and method names`;
    for (const use of uses) ch.manual(statementOf(use), reason);
    // Through a barrel or a require(), only the uses are marked: the barrel's own re-export goes there.
    if (!binding.direct || !ts.isImportSpecifier(binding.specifier)) continue;
    if (uses.length > 0 && !replacementImported) {
      ch.replace(binding.specifier, `${binding.specifier.isTypeOnly ? 'type ' : ''}${REPLACEMENT}`);
      replacementImported = true;
      ch.note(binding.specifier, `import of ${binding.imported} from 'ergraph' replaced by ${REPLACEMENT}; ${uses.length} use(s) marked`);
    } else {
      removed.add(binding.specifier);
      ch.note(binding.specifier, `import of ${binding.imported} from 'ergraph' removed (v6 has no such helper)`);
    }
  }
  for (const namespace of imports.namespaces) {
    for (const name of REMOVED) {
      for (const use of namespaceUses(sf, imports, name)) {
        ch.manual(statementOf(use), `${namespace}.${name} was removed in v6: use ${namespace}.${REPLACEMENT}(entity, suffix) or the entity and method names`);
      }
    }
  }

  for (const declaration of imports.declarations) {
    const bindings = declaration.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const elements = bindings.elements;
    const gone = elements.map((s, i) => (removed.has(s) ? i : -1)).filter((i) => i >= 0);
    if (gone.length === 0) continue;
    if (gone.length === elements.length && !declaration.importClause?.name) {
      ch.replace(wholeLines(source, declaration.getStart(sf), declaration.getEnd()), '');
      continue;
    }
    const merged: Array<{ start: number; end: number }> = [];
    if (source.slice(bindings.getStart(sf), bindings.getEnd()).includes('\n')) {
      // One specifier per line: whole lines go, so ranges never share a comma.
      for (const i of gone) {
        const r = removalRange(source, elements, i, sf);
        const last = merged[merged.length - 1];
        if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
        else merged.push(r);
      }
    } else {
      // A block of adjacent specifiers goes with the comma after it, or before it at the end.
      for (let k = 0; k < gone.length; ) {
        let j = k;
        while (j + 1 < gone.length && gone[j + 1] === gone[j]! + 1) j++;
        const first = gone[k]!;
        const last = gone[j]!;
        const next = elements[last + 1];
        merged.push(
          next
            ? { start: elements[first]!.getStart(sf), end: next.getStart(sf) }
            : { start: elements[first - 1]!.getEnd(), end: elements[last]!.getEnd() },
        );
        k = j + 1;
      }
    }
    for (const r of merged) ch.replace(r, '');
  }
}
