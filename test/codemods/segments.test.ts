/**
 * A run in segments (`upgrade --to 6` without a schema: the steps before v5-to-v6, the schema
 * looked up from their output, then v5-to-v6): a file the first segment left as it was keeps its
 * parse, a changed one is parsed again, and each segment reads its trees with its own module graph.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { scriptTransform, type Script } from '../../codemods/lib/script.js';
import { runMigration } from '../../codemods/runner/run.js';
import type { Transform } from '../../codemods/types.js';

const dir = mkdtempSync(join(tmpdir(), 'ergraph-segments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A step that records the script it was given for each file, and may edit one file. */
function recorder(name: string, seen: Map<string, Script>, edit?: { file: string; from: string; to: string }): Transform {
  return scriptTransform(
    { name, from: '5', to: '6', description: `records scripts (${name})`, extensions: ['.ts'] },
    {
      wants: () => true,
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

it('a later segment reuses the trees of files the earlier one left alone, with its own module graph', async () => {
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'kept.ts'), "import { a } from './changed';\nexport const k = a;\n");
  writeFileSync(join(dir, 'src', 'changed.ts'), 'export const a = 1;\n');
  const first = new Map<string, Script>();
  const second = new Map<string, Script>();
  let asked = 0;
  const report = await runMigration({
    // Named so: the runner splits before v5-to-v6 when it has no schema and may look one up.
    transforms: [recorder('before-v6', first, { file: 'changed.ts', from: 'const a', to: 'const a: number' }), recorder('v5-to-v6', second)],
    paths: ['src'],
    cwd: dir,
    workers: 0,
    dryRun: true,
    gitignore: false,
    resolveSchema: async (texts) => {
      asked++;
      expect(texts.get(join(dir, 'src', 'changed.ts'))).toBe('export const a: number = 1;\n');
      return undefined;
    },
  });
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
