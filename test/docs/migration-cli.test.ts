/**
 * docs/migration.md's table of options and exit codes against the command line itself: every
 * option `--help` of a step, `upgrade` and `verify` declares has a row, every row names an option
 * there is, and every exit code the CLI has (and no other) has a row (issue 44.6).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { EXIT } from '../../codemods/cli.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'migration.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Options and exit codes'), doc.indexOf('\n## ', doc.indexOf('## Options and exit codes') + 1));
const rows = (header: string) => {
  const table = section.slice(section.indexOf(header));
  return table.split('\n').slice(2).filter((line) => line.startsWith('|')).map((line) => line.split(/(?<!\\)\|/)[1]!.trim());
};

/** `--help` of a command, as the bin prints it (yargs writes a command's help to the console). */
function help(command: string): string {
  const run = spawnSync(process.execPath, [BIN, command, '--help'], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(EXIT.ok);
  return run.stdout;
}

it('documents every option of the command line, and only those', () => {
  const declared = new Set<string>();
  for (const command of ['v5-to-v6', 'upgrade', 'verify']) {
    for (const [, short, long] of help(command).matchAll(/^\s+(?:(-\w), )?--([a-z][a-z-]*)/gm)) {
      declared.add(`--${long}`);
      if (short) declared.add(short);
    }
  }
  // yargs declares `--keep-response-keys`; its negation is how it is turned off.
  declared.add('--no-keep-response-keys');
  const documented = new Set(rows('| option |').flatMap((cell) => [...cell.matchAll(/`(-{1,2}[a-z][a-z-]*)/g)].map((m) => m[1]!)));
  expect([...documented].sort()).toEqual([...declared].sort());
  expect(documented.has('--commit-per-step')).toBe(true);
});

it('documents every exit code, and only those', () => {
  const documented = rows('| exit code |').map(Number);
  expect(documented).toEqual([...new Set(Object.values(EXIT))].sort((a, b) => a - b));
});
