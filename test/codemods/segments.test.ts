/**
 * A run in segments (`upgrade --to 6` without a schema: the steps before v5-to-v6, the schema
 * looked up from their output, then v5-to-v6): a file the first segment left as it was keeps its
 * parse, a changed one is parsed again, and each segment reads its trees with its own module graph.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, expect, it, vi } from 'vitest';
import { ts } from '../../codemods/lib/parse.js';
import type { Script } from '../../codemods/lib/script.js';
import { scriptTransform } from '../../codemods/script-steps.js';
import { runMigration } from '../../codemods/runner/run.js';
import type { Transform } from '../../codemods/types.js';

// The runner's final check of each changed file's output, and its parses, counted.
const checked = vi.hoisted(() => [] as string[]);
const parses = vi.hoisted(() => [] as string[]);
vi.mock('../../codemods/lib/parse.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../codemods/lib/parse.js')>();
  return {
    ...real,
    checkParses(source: string, file: string) {
      checked.push(file);
      return real.checkParses(source, file);
    },
    parseUnlinked(source: string, file: string) {
      parses.push(file);
      return real.parseUnlinked(source, file);
    },
    parseSource(source: string, file: string) {
      parses.push(file);
      return real.parseSource(source, file);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'ergraph-segments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A step that records the script it was given for each file, and may edit one file. */
function recorder(name: string, seen: Map<string, Script>, edit?: { file: string; from: string; to: string }, wants: (text: string) => boolean = () => true): Transform {
  return scriptTransform(
    { name, from: '5', to: '6', description: `records scripts (${name})`, extensions: ['.ts'] },
    {
      wants,
      apply(script, { changes }) {
        seen.set(script.file.slice(dir.length + 1), script);
        if (edit && script.file.endsWith(edit.file)) {
          const at = script.source.indexOf(edit.from);
          changes.replace({ start: at, end: at + edit.from.length }, edit.to);
        }
      },
    },
  );
}

/** A dry run of `transforms` over `root` (every file, no worker, no .gitignore), as the CLI would make it. */
const dryRun = (root: string, transforms: Transform[], resolveSchema: Parameters<typeof runMigration>[0]['resolveSchema'] = async () => undefined, paths = ['.']) =>
  runMigration({ transforms, paths, cwd: root, workers: 0, dryRun: true, gitignore: false, resolveSchema });

it('a later segment reuses the trees of files the earlier one left alone, with its own module graph', async () => {
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'kept.ts'), "import { a } from './changed';\nexport const k = a;\n");
  writeFileSync(join(dir, 'src', 'changed.ts'), 'export const a = 1;\n');
  const first = new Map<string, Script>();
  const second = new Map<string, Script>();
  let asked = 0;
  const report = await dryRun(
    dir,
    // Named so: the runner splits before v5-to-v6 when it has no schema and may look one up.
    [recorder('before-v6', first, { file: 'changed.ts', from: 'const a', to: 'const a: number' }), recorder('v5-to-v6', second)],
    async (texts) => {
      asked++;
      expect(texts.get(join(dir, 'src', 'changed.ts'))).toBe('export const a: number = 1;\n');
      return undefined;
    },
    ['src'],
  );
  expect(asked).toBe(1);
  expect(report.summary).toMatchObject({ files: 2, changed: 1, errors: 0 });
  // Left alone by the first segment: the same tree, not a second parse.
  expect(second.get('src/kept.ts')!.sf).toBe(first.get('src/kept.ts')!.sf);
  // Changed: parsed again from the first segment's output.
  expect(second.get('src/changed.ts')!.sf).not.toBe(first.get('src/changed.ts')!.sf);
  expect(second.get('src/changed.ts')!.source).toBe('export const a: number = 1;\n');
  // A fresh script over the kept tree, reading the second segment's module graph.
  expect(second.get('src/kept.ts')).not.toBe(first.get('src/kept.ts'));
  expect(second.get('src/kept.ts')!.project).toBe(second.get('src/changed.ts')!.project);
  expect(second.get('src/kept.ts')!.project).not.toBe(first.get('src/kept.ts')!.project);
});

it("a later segment's parse of a file is its output's check: only a file the last segment changed is parsed again at the end", async () => {
  const root = join(dir, 'checked');
  mkdirSync(root);
  writeFileSync(join(root, 'early.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'late.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'both.ts'), 'export const c = 3;\n');
  checked.length = 0;
  const report = await dryRun(root, [
    recorder('before-v6', new Map(), { file: 'early.ts', from: 'const a', to: 'const a: number' }),
    recorder('v5-to-v6', new Map(), { file: 'late.ts', from: 'const b', to: 'const b: number' }),
  ]);
  expect(report.summary).toMatchObject({ files: 3, changed: 2, errors: 0 });
  expect(report.files.find((f) => f.file === 'early.ts')!.after).toBe('export const a: number = 1;\n');
  // early.ts: its output was parsed by the v5-to-v6 segment, which left it as it was. late.ts: changed last.
  expect(checked.map((f) => f.slice(root.length + 1))).toEqual(['late.ts']);
});

it('a file only a later segment wants is parsed once: the tree its facts were read from, linked then', async () => {
  const root = join(dir, 'later-only');
  mkdirSync(root);
  writeFileSync(join(root, 'early.ts'), 'export const a = 1; // FIRST\n');
  writeFileSync(join(root, 'late.ts'), "import { a } from './early';\nexport const b = a; // SECOND\n");
  const first = new Map<string, Script>();
  const second = new Map<string, Script>();
  parses.length = 0;
  const report = await dryRun(root, [
    recorder('before-v6', first, undefined, (text) => text.includes('FIRST')),
    recorder('v5-to-v6', second, { file: 'late.ts', from: 'const b', to: 'const b: number' }, (text) => text.includes('SECOND')),
  ]);
  expect(report.summary).toMatchObject({ files: 2, changed: 1, errors: 0 });
  expect(report.files.find((f) => f.file === 'late.ts')!.after).toBe("import { a } from './early';\nexport const b: number = a; // SECOND\n");
  expect(first.has('later-only/late.ts')).toBe(false);
  // One parse of each file in the whole run (late.ts's output is checked at the end, not parsed here).
  expect(parses.map((f) => f.slice(root.length + 1)).sort()).toEqual(['early.ts', 'late.ts']);
  // The kept tree is linked like a fresh parse, and read with the later segment's module graph.
  const { sf, project } = second.get('later-only/late.ts')!;
  expect(sf.statements.every((s) => s.parent === sf)).toBe(true);
  const names: string[] = [];
  const walk = (node: ts.Node): void => {
    expect(node.parent).toBeDefined();
    if (ts.isIdentifier(node)) names.push(node.text);
    ts.forEachChild(node, walk);
  };
  ts.forEachChild(sf, walk);
  expect(names).toEqual(['a', 'b', 'a']);
  expect(project.facts(join(root, 'late.ts'))!.imports.a).toEqual({ module: './early', name: 'a' });
});

it('a tree only the earlier segment wanted is let go before the later segment starts', async () => {
  const root = join(dir, 'released');
  mkdirSync(root);
  writeFileSync(join(root, 'early.ts'), 'export const a = 1; // FIRST\n');
  writeFileSync(join(root, 'late.ts'), 'export const b = 2; // SECOND\n');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let early: WeakRef<ts.SourceFile> | undefined;
  let alive: boolean | undefined;
  const report = await dryRun(
    root,
    [
      scriptTransform(
        { name: 'before-v6', from: '5', to: '6', description: 'remembers early.ts weakly', extensions: ['.ts'] },
        { wants: (text) => text.includes('FIRST'), apply: (script) => void (early = new WeakRef(script.sf)) },
      ),
      recorder('v5-to-v6', new Map(), undefined, (text) => text.includes('SECOND')),
    ],
    // Asked between the segments, in a new task: a WeakRef's target lives until the task that made it ends.
    () =>
      new Promise((done) =>
        setTimeout(() => {
          gc();
          alive = early?.deref() !== undefined;
          done(undefined);
        }, 0),
      ),
  );
  expect(report.summary).toMatchObject({ files: 2, errors: 0 });
  expect(early).toBeDefined();
  expect(alive).toBe(false);
});
