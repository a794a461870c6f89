/**
 * v5.4 → v5.5: `const AutoLoad = diagram.createAutoLoad()` goes, `AutoLoad` is imported from
 * 'ergraph', and the resolver is bound to the diagram with `configGlobalResolver(diagram)` unless
 * some scanned file already does that (section 9.3).
 */
import { callsOf } from '../lib/ast.js';
import type { FileChanges } from '../lib/changes.js';
import { localFor, PACKAGE, type ErgraphImports } from '../lib/ergraph-imports.js';
import { nodesOf } from '../lib/nodes.js';
import { SCRIPT_EXTENSIONS, ts } from '../lib/parse.js';
import { wholeRunNote } from '../lib/alone.js';
import { scriptTransform } from '../script-steps.js';
import { meta } from './meta.js';

export type AutoLoadFact =
  | { kind: 'configured'; file: string; diagram: string }
  | { kind: 'createAutoLoad'; file: string; diagram: string };

function isCreateAutoLoad(node: ts.Node): node is ts.CallExpression & { expression: ts.PropertyAccessExpression } {
  return (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'createAutoLoad'
  );
}

function createAutoLoadCalls(sf: ts.SourceFile): (ts.CallExpression & { expression: ts.PropertyAccessExpression })[] {
  return nodesOf(sf).calls.filter(isCreateAutoLoad);
}

function configuredDiagrams(sf: ts.SourceFile, imports: ErgraphImports): string[] {
  return callsOf(sf, imports, ['configGlobalResolver', 'configResolver']).map(({ node, exportName }) => {
    const arg = node.arguments[exportName === 'configResolver' ? 1 : 0];
    return arg ? arg.getText(sf) : '';
  });
}

/** The `const X = d.createAutoLoad()` statement a call is the whole initializer of, if it is. */
function declaringStatement(call: ts.CallExpression): ts.VariableStatement | undefined {
  const decl = call.parent;
  if (!ts.isVariableDeclaration(decl) || decl.initializer !== call || !ts.isIdentifier(decl.name)) return undefined;
  const list = decl.parent;
  const stmt = list.parent;
  return ts.isVariableDeclarationList(list) && list.declarations.length === 1 && ts.isVariableStatement(stmt) ? stmt : undefined;
}

function wholeLines(ch: FileChanges, node: ts.Node): { start: number; end: number } {
  const { source, sf } = ch;
  const start = node.getStart(sf);
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const newline = source.indexOf('\n', node.getEnd());
  const lineEnd = newline === -1 ? source.length : newline + 1;
  const ownLines = /^\s*$/.test(source.slice(lineStart, start)) && /^\s*$/.test(source.slice(node.getEnd(), lineEnd));
  if (!ownLines) return { start, end: node.getEnd() };
  // Between two blank lines, take one of them too so no double gap is left behind.
  const blankBefore = /\n[ \t]*\r?\n$/.test(source.slice(0, lineStart));
  const blankAfter = /^[ \t]*\r?\n/.exec(source.slice(lineEnd));
  return { start: lineStart, end: blankBefore && blankAfter ? lineEnd + blankAfter[0].length : lineEnd };
}

/** What the run's facts say, read once per facts array (every file of a run gets the same one). */
const summaries = new WeakMap<readonly AutoLoadFact[], { configured: boolean; firstCreator?: string }>();
function summaryOf(facts: readonly AutoLoadFact[]): { configured: boolean; firstCreator?: string } {
  let summary = summaries.get(facts);
  if (!summary)
    summaries.set(facts, (summary = { configured: facts.some((f) => f.kind === 'configured'), firstCreator: facts.find((f) => f.kind === 'createAutoLoad')?.file }));
  return summary;
}

const transform = scriptTransform<AutoLoadFact>(
  {
    ...meta,
    extensions: SCRIPT_EXTENSIONS,
  },
  {
    // The resolver-binding calls by their names (under another name through a barrel, `stepWants`
    // sees them): `Resolver` alone also wanted every file naming any *Resolver (effect's
    // RequestResolver: 64 files, 4.4 MB, of viem + effect wanted, none of them with this work).
    wants: (source) =>
      source.includes('createAutoLoad') || source.includes('configGlobalResolver') || source.includes('configResolver') || /_er_?[cC]onfigs_?[mM]ap/.test(source),
    scan({ sf, file, imports }) {
      const facts: AutoLoadFact[] = configuredDiagrams(sf, imports).map((diagram) => ({ kind: 'configured', file, diagram }));
      for (const call of createAutoLoadCalls(sf))
        facts.push({ kind: 'createAutoLoad', file, diagram: call.expression.expression.getText(sf) });
      return facts;
    },
    apply({ sf, file, source, imports }, { facts, options, changes: ch }) {
      const summary = summaryOf(facts);
      const configured = summary.configured || configuredDiagrams(sf, imports).length > 0;
      // With no binding anywhere, the first file that created AutoLoad gets the one call.
      const firstCreator = summary.firstCreator ?? file;
      let bound = configured;
      for (const call of createAutoLoadCalls(sf)) {
        const stmt = declaringStatement(call);
        if (!stmt || call.arguments.length > 0) {
          ch.manual(call, "createAutoLoad() was removed in v5.5: import AutoLoad from 'ergraph' and call configGlobalResolver(diagram)");
          continue;
        }
        const local = (stmt.declarationList.declarations[0].name as ts.Identifier).text;
        const diagram = call.expression.expression.getText(sf);
        const exported = stmt.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        const binding = local === 'AutoLoad' ? 'AutoLoad' : `AutoLoad as ${local}`;
        const lines: string[] = [];
        if (exported) {
          lines.push(`export { ${binding} } from '${PACKAGE}';`);
          ch.note(stmt, `${local} is re-exported from '${PACKAGE}' so modules importing it keep working`);
        } else if (!imports.named.some((b) => b.imported === 'AutoLoad' && b.local === local)) imports.added.add(binding);
        if (!bound && file === firstCreator && options.alone) {
          // Whether another file binds the resolver is the whole project's fact: marked, not guessed.
          ch.manual(stmt, `configGlobalResolver(${diagram}) is needed once in the project unless a file calls it; ${wholeRunNote('v5.4-to-v5.5')}, adding it where no file does`);
          bound = true;
        } else if (!bound && file === firstCreator) {
          lines.push(`${localFor('configGlobalResolver', imports)}(${diagram});`);
          ch.note(stmt, `configGlobalResolver(${diagram}) added: the resolver must be bound to the diagram`);
          bound = true;
        }
        if (lines.length === 0) ch.replace(wholeLines(ch, stmt), '');
        else ch.replace(stmt, lines.join('\n' + (/^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', stmt.getStart(sf)) + 1))?.[0] ?? '')));
      }
      for (const node of nodesOf(sf).accesses)
        if (['_er_configs_map', '_erConfigsMap'].includes(node.name.text)) ch.manual(node, `${node.name.text} was removed in v5.5`);
    },
  },
);

export default transform;
