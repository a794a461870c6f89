/**
 * A transform whose output does not parse is a bug of the transform: the file must stay
 * byte-identical and the run must report an error for it (DESIGN.md section 10; issue 30 item 4).
 * Shown with a transform that really emits broken code — TypeScript, GraphQL and JSON — through
 * `codemods/apply.ts` (one file, a set of files) and through the runner (one step, and a chain
 * whose later step is clean), not by counting parse calls.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyToFiles, applyTransform } from '../../codemods/apply.js';
import { runMigration } from '../../codemods/runner/run.js';
import type { Transform } from '../../codemods/types.js';

const SOURCES: Record<string, string> = {
  'src/a.ts': "export const a = 'keep me';\n",
  'src/q.graphql': '{ userGetAll { id } }\n',
  'src/m.json': '{ "operations": {} }\n',
};
const BROKEN: Record<string, string> = { ts: 'export const a = ;\n', graphql: '{ userGetAll { id \n', json: '{ "operations": \n' };

/** Changes every file it reads into text that does not parse. */
const breaker: Transform = {
  name: 'breaker',
  from: '5',
  to: '6',
  description: 'emits broken code',
  extensions: ['.ts', '.graphql', '.json'],
  claims: () => true,
  apply: (_source, { file }) => ({ output: BROKEN[file.split('.').pop()!]!, manual: [], notes: [] }) as never,
};
/** A clean step after it: appends a comment-free newline-preserving no-op edit. */
const tidy: Transform = { ...breaker, name: 'tidy', description: 'changes nothing', apply: (source) => ({ output: source, manual: [], notes: [] }) as never };

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-broken-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(SOURCES)) {
    writeFileSync(join(dir, file.replace('src/', '')), text);
  }
  return dir;
}

describe('codemods/apply.ts', () => {
  it('applyTransform throws, naming the file and that the output does not parse', () => {
    for (const file of Object.keys(SOURCES)) {
      expect(() => applyTransform(breaker, SOURCES[file]!, file)).toThrow(/does not parse|is not JSON/);
    }
  });

  it('applyToFiles returns an error and no result for each broken file', () => {
    const outcomes = applyToFiles(breaker, new Map(Object.entries(SOURCES)));
    for (const file of Object.keys(SOURCES)) {
      const outcome = outcomes.get(file)!;
      expect(outcome.result, file).toBeUndefined();
      expect(outcome.error?.message, file).toMatch(/does not parse|is not JSON/);
      expect(outcome.source).toBe(SOURCES[file]);
    }
  });
});

describe('the runner', () => {
  for (const [name, transforms] of [
    ['one broken step', [breaker]],
    ['a broken step followed by a clean one', [breaker, tidy]],
  ] as const) {
    it(`${name}: every file stays byte-identical and the report counts an error per file`, async () => {
      const dir = project();
      const report = await runMigration({ transforms, paths: ['.'], cwd: dir, workers: 0, gitignore: false });
      for (const file of Object.keys(SOURCES)) {
        const base = file.replace('src/', '');
        expect(readFileSync(join(dir, base), 'utf8'), base).toBe(SOURCES[file]);
        const entry = report.files.find((f) => f.file === base)!;
        expect(entry.error, base).toMatch(/does not parse|is not JSON/);
        expect(entry.changed).toBe(false);
        expect(entry.after).toBe(SOURCES[file]);
      }
      expect(report.summary.errors).toBe(Object.keys(SOURCES).length);
      expect(report.summary.changed).toBe(0);
    });
  }
});
