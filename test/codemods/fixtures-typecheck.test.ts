/**
 * Every expected file under fixtures/ compiles against the built v6 package (issue 12.5), in ONE
 * TypeScript program with `node_modules/ergraph` linked to the build, as a user's project has it.
 *
 * Outputs of the steps that stop before v6 (v3-to-v4, v4-to-v5, v5.4-to-v5.5) are old-version
 * code: they are checked after the rest of the upgrade chain ran on them (`runMigration`, the
 * runner the CLI uses), since v6 is the only API this package declares. The federation-config
 * and v5-to-v6 outputs are v6 code and are checked as they are.
 *
 * A fixture that shows what a transform leaves to a human compiles except at the places it marks
 * `// TODO(ergraph-migrate)`: an error is allowed only inside the construct right below a
 * marker, or as an import or read of a removed name such a marker talks about. Any other error fails.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ts } from '../../codemods/lib/parse.js';
import { REMOVED } from '../../codemods/lib/v6-exports.js';
import { findTransform, upgradePath } from '../../codemods/registry.js';
import { runMigration } from '../../codemods/runner/run.js';
import { formatDiagnostic, typeCheck, writeProject, type Diagnostic } from '../support/typecheck.js';
import { FIXTURES, walk } from './helpers.js';

const TODO = '// TODO(ergraph-migrate): ';

/** 1-based lines covered by a marked construct: from the line under each marker to the end of the outermost node starting there. */
function markedLines(file: string, text: string): { lines: Set<number>; reasons: string[] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const endOfNodesAt = new Map<number, number>();
  const visit = (node: ts.Node) => {
    const start = node.getStart(sf);
    const line = lineOf(start);
    const firstToken = sf.getPositionOfLineAndCharacter(line, 0) + /^\s*/.exec(sf.text.slice(sf.getPositionOfLineAndCharacter(line, 0)))![0].length;
    if (start === firstToken) endOfNodesAt.set(line, Math.max(endOfNodesAt.get(line) ?? line, lineOf(node.getEnd())));
    node.forEachChild(visit);
  };
  sf.forEachChild(visit);
  const lines = new Set<number>();
  const reasons: string[] = [];
  const all = text.split('\n');
  all.forEach((line, i) => {
    const at = line.indexOf(TODO);
    if (at === -1) return;
    reasons.push(line.slice(at + TODO.length));
    let next = i + 1;
    while (next < all.length && all[next]!.includes(TODO)) next++;
    for (let l = next; l <= (endOfNodesAt.get(next) ?? next); l++) lines.add(l + 1);
  });
  return { lines, reasons };
}

const dir = mkdtempSync(join(tmpdir(), 'ergraph-fixtures-tsc-'));
const cases: { transform: string; name: string; chain: string[] }[] = [];
let diagnostics: Diagnostic[] = [];

beforeAll(async () => {
  // One folder per transform (fixtures/corpus has tests of its own: corpus.test.ts).
  for (const transform of readdirSync(FIXTURES).filter((name) => findTransform(name)).sort()) {
    const to = findTransform(transform)!.to;
    for (const name of readdirSync(join(FIXTURES, transform)).sort()) {
      const target = join(dir, transform, name);
      cpSync(join(FIXTURES, transform, name, 'expected'), target, { recursive: true });
      const chain = to === '6' ? [] : upgradePath(to, '6').map((t) => t.name);
      cases.push({ transform, name, chain });
      if (chain.length === 0) continue;
      const report = await runMigration({ transforms: chain, paths: [target], cwd: target, workers: 0, gitignore: false });
      const errors = report.files.filter((f) => f.error).map((f) => `${f.file}: ${f.error}`);
      if (errors.length > 0) throw new Error(`${transform}/${name}: the rest of the chain failed: ${errors.join('; ')}`);
    }
  }
  writeProject(dir, new Map(), ['graphql-tag', '@modelcontextprotocol/sdk']);
  diagnostics = typeCheck(dir);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fixtures/**/expected compile against the built v6 package', () => {
  it('covers every fixture case, running the rest of the upgrade chain on the outputs of steps before v6', () => {
    expect(cases.length).toBeGreaterThanOrEqual(17);
    expect(cases.find((c) => c.transform === 'v3-to-v4')?.chain).toEqual(['v4-to-v5', 'v5.4-to-v5.5', 'federation-config', 'v5-to-v6']);
    expect(cases.filter((c) => c.transform === 'federation-config' || c.transform === 'v5-to-v6').every((c) => c.chain.length === 0)).toBe(true);
  });

  it('has no type error outside the constructs a TODO marker leaves to a human', () => {
    const unexpected = diagnostics.filter((d) => {
      if (!d.file || d.file.startsWith('node_modules/')) return true;
      const text = readFileSync(join(dir, d.file), 'utf8');
      const { lines, reasons } = markedLines(d.file, text);
      if (lines.has(d.line)) return false;
      // A removed name a marker names, where the file still imports or reads it (from a dynamic import).
      // (TS2305 "has no exported member 'X'", or TS2724 "... member named 'X'. Did you mean 'Y'?" when a similar name exists.)
      const removed = /(?:has no exported member(?: named)?|Property) '(\w+)'(?: does not exist)?/.exec(d.message)?.[1];
      return !(removed && removed in REMOVED && reasons.some((r) => r.includes(removed)));
    });
    expect(unexpected.map(formatDiagnostic)).toEqual([]);
  });

  it('fixtures without markers compile with no error at all', () => {
    const files = cases.flatMap((c) => walk(join(dir, c.transform, c.name)));
    const marked = new Set(files.filter((f) => /\.ts$/.test(f) && readFileSync(f, 'utf8').includes(TODO)).map((f) => f.slice(dir.length + 1)));
    expect(marked.size).toBeGreaterThan(0);
    expect(diagnostics.filter((d) => !marked.has(d.file)).map(formatDiagnostic)).toEqual([]);
  });
});
