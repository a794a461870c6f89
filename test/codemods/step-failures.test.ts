/**
 * Whatever pass of a step fails on a file (its scan, apply, finish; a thread of the pool dying on
 * it), that file alone gets the error, named by its path, and the run goes on (issue 45.1). A
 * failure no file can be blamed for (the step's `touches`) is every file of that step's error,
 * not the run's end. The runner wraps every step alike, so a step added later is held too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool } from '../../codemods/runner/pool.js';
import { runMigration } from '../../codemods/runner/run.js';
import { scriptTransform } from '../../codemods/script-steps.js';
import type { Transform } from '../../codemods/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(names: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-step-failures-'));
  dirs.push(dir);
  for (const name of names) writeFileSync(join(dir, name), `export const ${name.replace('.ts', '')} = 1;\n`);
  return dir;
}

/** A step that appends a line to each file, and throws in the pass a file's name says. */
function failing(touches?: () => never): Transform {
  const fails = (file: string, pass: string) => {
    if (file.endsWith(`/${pass}.ts`)) throw new Error(`${pass} failed`);
  };
  return scriptTransform(
    { name: 'failing-step', from: '5.5', to: '6', description: 'fails on cue', extensions: ['.ts'] },
    {
      wants: () => true,
      prepare() {
        throw new Error('prepare failed');
      },
      scan({ file }) {
        fails(file, 'scan');
        return [file];
      },
      touches,
      apply({ file, sf }, { changes }) {
        fails(file, 'apply');
        changes.insert(sf.text.length, '// done\n');
      },
      finish({ file }) {
        fails(file, 'finish');
        return {};
      },
    },
  );
}

const run = (cwd: string, step: Transform) => runMigration({ transforms: [step], paths: ['.'], cwd, workers: 0, gitignore: false });

describe('a failing pass fails its file alone', () => {
  it('scan, apply and finish: that file is its error, by path, and left as it was; the others are written', async () => {
    const dir = tree(['scan.ts', 'apply.ts', 'finish.ts', 'fine.ts', 'other.ts']);
    writeFileSync(join(dir, 'broken.ts'), 'export const = ;\n');
    const report = await run(dir, failing());
    const errors = Object.fromEntries(report.files.filter((f) => f.error).map((f) => [f.file, f.error]));
    // A parse error names the file as the report does (relative), with its line and column.
    expect(errors).toEqual({ 'scan.ts': 'scan failed', 'apply.ts': 'apply failed', 'finish.ts': 'finish failed', 'broken.ts': expect.stringMatching(/^broken\.ts:1:\d+: \S/) });
    for (const name of ['scan.ts', 'apply.ts', 'finish.ts']) expect(readFileSync(join(dir, name), 'utf8')).not.toContain('// done');
    for (const name of ['fine.ts', 'other.ts']) expect(readFileSync(join(dir, name), 'utf8')).toMatch(/\/\/ done\n$/);
    expect(report.summary).toMatchObject({ files: 6, changed: 2, errors: 4 });
  });

  it("a step's touches that throws: each of its files says why, and the run returns its report", async () => {
    const dir = tree(['a.ts', 'b.ts']);
    const report = await run(
      dir,
      failing(() => {
        throw new RangeError('Maximum call stack size exceeded');
      }),
    );
    expect(report.files.map((f) => f.error)).toEqual([
      'failing-step could not tell which files other files\' facts reach: Maximum call stack size exceeded: nested too deeply to migrate (generated or minified code? --ignore leaves it out)',
      'failing-step could not tell which files other files\' facts reach: Maximum call stack size exceeded: nested too deeply to migrate (generated or minified code? --ignore leaves it out)',
    ]);
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });
});

describe('the worker pool', () => {
  // A thread that answers each job with the controls it has seen, and dies on the file named `die`.
  const START = () =>
    new Worker(
      `const { parentPort } = require('node:worker_threads');
       const seen = [];
       parentPort.on('message', (m) => {
         if (m.op === 'options' || m.op === 'facts') return void seen.push(m.op);
         if (m.file === 'die') process.exit(7);
         parentPort.postMessage({ id: m.id, facts: [m.file, ...seen] });
       });`,
      { eval: true },
    );

  it('a thread that dies on a file answers that file with an error; a new thread with the step\'s controls takes the rest', async () => {
    const pool = createPool(1, START);
    try {
      pool.broadcast({ op: 'options', transform: 't', options: {} });
      pool.broadcast({ op: 'facts', transform: 't', facts: [] });
      const jobs = ['a', 'die', 'b'].map((file) => ({ op: 'scan' as const, transform: 't', file, source: '' }));
      const replies = await pool.run(jobs);
      expect(replies.map((r) => ('facts' in r ? r.facts : 'error' in r ? r.error.message : r))).toEqual([
        ['a', 'options', 'facts'],
        'the worker thread migrating this file stopped (exit code 7); the file is left unchanged',
        ['b', 'options', 'facts'],
      ]);
    } finally {
      await pool.close();
    }
  });
});
