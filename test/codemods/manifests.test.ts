/**
 * v5-to-v6 on persisted-query manifests (issue 12.6): an Apollo persisted query list and a Relay
 * map are found by their content among other JSON files, their operations rewritten in place, and
 * each gets a `<name>.v6-map.json` with old id → { id, body, v5Body }. Checked against the
 * fixture's expected tree and, independently, against the v6 schema and sha256 itself.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { main, type CliIO } from '../../codemods/cli.js';
import { runMigration } from '../../codemods/runner/run.js';
import { toMarkdown } from '../../codemods/runner/report.js';
import { manifestFormat } from '../../codemods/v5-to-v6/manifest.js';
import { FIXTURES, readTree } from './helpers.js';

const CASE = join(FIXTURES, 'v5-to-v6', 'manifests');
const SCHEMA_FILE = join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql');
const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const APOLLO = 'persisted-query-manifest.json';
const RELAY = 'relay/persisted_queries.json';

interface ApolloOperation {
  id: string;
  name: string;
  type: string;
  body: string;
}
interface MapEntry {
  id: string;
  body: string;
  v5Body: string;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function copyInput(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-manifests-'));
  dirs.push(dir);
  cpSync(join(CASE, 'input'), dir, { recursive: true });
  return dir;
}

const migrate = (cwd: string, extra: { dryRun?: boolean; withSchema?: boolean; workers?: number } = {}) =>
  runMigration({
    transforms: ['v5-to-v6'],
    paths: ['.'],
    cwd,
    workers: extra.workers ?? 0,
    dryRun: extra.dryRun,
    gitignore: false,
    options: extra.withSchema === false ? {} : { schema },
  });

const json = <T>(dir: string, file: string): T => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;

describe('v5-to-v6 on persisted-query manifests', () => {
  it('tells manifests by their content, not their name', () => {
    const input = readTree(join(CASE, 'input'));
    expect(manifestFormat(input.get(APOLLO)!)).toBe('apollo');
    expect(manifestFormat(input.get(RELAY)!)).toBe('relay');
    expect(manifestFormat(input.get('package.json')!)).toBeUndefined();
    // One value parses as a GraphQL query (`{ hello }`), the other does not: not a Relay map.
    expect(manifestFormat(input.get('relay/translations.json')!)).toBeUndefined();
    // The same Relay content under any name is still a manifest.
    expect(manifestFormat(input.get(RELAY)!.replace(/\n/g, ''))).toBe('relay');
  });

  it('produces the expected tree: rewritten manifests and a mapping beside each', async () => {
    const dir = copyInput();
    const report = await migrate(dir);
    expect(report.summary.errors).toBe(0);
    expect(readTree(dir)).toEqual(readTree(join(CASE, 'expected')));
    // Only the manifests are part of the run: package.json and translations.json are not listed.
    expect(report.files.filter((f) => !f.companionOf).map((f) => f.file).sort()).toEqual([APOLLO, RELAY]);
    expect(report.files.filter((f) => f.companionOf).map((f) => [f.file, f.companionOf])).toEqual([
      ['persisted-query-manifest.v6-map.json', APOLLO],
      ['relay/persisted_queries.v6-map.json', RELAY],
    ]);
  });

  it('produces the same tree through worker threads', async () => {
    const dir = copyInput();
    const report = await migrate(dir, { workers: 1 });
    expect(report.summary.errors).toBe(0);
    expect(readTree(dir)).toEqual(readTree(join(CASE, 'expected')));
  });

  it('gives Apollo operations the sha256 of their new body, and v6 bodies that validate', async () => {
    const dir = copyInput();
    await migrate(dir);
    const before = json<{ operations: ApolloOperation[] }>(join(CASE, 'input'), APOLLO).operations;
    const after = json<{ operations: ApolloOperation[]; format: string; version: number }>(dir, APOLLO);
    expect(after).toMatchObject({ format: 'apollo-persisted-query-manifest', version: 1 });
    const mapping = json<Record<string, MapEntry>>(dir, 'persisted-query-manifest.v6-map.json');
    for (const op of after.operations) expect(op.id, op.name).toBe(sha256(op.body));
    const rewritten = after.operations.filter((op, i) => op.body !== before[i]!.body).map((op) => op.name);
    expect(rewritten).toEqual(['Users', 'CreateAndRename']);
    for (const [i, op] of after.operations.entries()) {
      const old = before[i]!;
      expect({ name: op.name, type: op.type }).toEqual({ name: old.name, type: old.type });
      if (!rewritten.includes(op.name)) {
        expect(op, op.name).toEqual(old);
        expect(mapping[old.id], op.name).toBeUndefined();
        continue;
      }
      expect(validate(schema, parse(op.body)), op.name).toEqual([]);
      // The mapping takes the old id to the new one and keeps the document old clients meant.
      expect(mapping[old.id]).toEqual({ id: op.id, body: op.body, v5Body: old.body });
      expect(sha256(mapping[old.id]!.v5Body)).toBe(old.id);
    }
    expect(Object.keys(mapping)).toHaveLength(2);
  });

  it('keeps Relay ids and rewrites their documents', async () => {
    const dir = copyInput();
    await migrate(dir);
    const before = json<Record<string, string>>(join(CASE, 'input'), RELAY);
    const after = json<Record<string, string>>(dir, RELAY);
    const mapping = json<Record<string, MapEntry>>(dir, 'relay/persisted_queries.v6-map.json');
    expect(Object.keys(after)).toEqual(Object.keys(before));
    const changed = Object.keys(after).filter((id) => after[id] !== before[id]);
    expect(changed.sort()).toEqual(Object.keys(mapping).sort());
    expect(changed).toHaveLength(2);
    for (const id of changed) {
      expect(validate(schema, parse(after[id]!))).toEqual([]);
      expect(mapping[id]).toEqual({ id, body: after[id], v5Body: before[id] });
    }
  });

  it('changes only the rewritten strings: the rest of each manifest is byte-identical', async () => {
    const dir = copyInput();
    await migrate(dir);
    const input = readFileSync(join(CASE, 'input', APOLLO), 'utf8');
    const output = readFileSync(join(dir, APOLLO), 'utf8');
    const lines = (text: string) => text.split('\n').filter((l) => !/^\s*"(id|body)":/.test(l));
    expect(lines(output)).toEqual(lines(input));
    for (const name of ['AlreadyV6', 'Broken', 'Payments', 'Mixed']) {
      const block = (text: string) => new RegExp(`\\{[^{}]*"name": "${name}"[^{}]*\\}`).exec(text)?.[0];
      expect(block(output), name).toBe(block(input));
    }
  });

  it('reports each manifest, and each operation it could not rewrite with the next step', async () => {
    const dir = copyInput();
    const report = await migrate(dir);
    const apollo = report.files.find((f) => f.file === APOLLO)!;
    expect(apollo.manifest).toEqual({ format: 'apollo', operations: 6, rewritten: 2, mapping: 'persisted-query-manifest.v6-map.json' });
    expect(report.files.find((f) => f.file === RELAY)!.manifest).toEqual({ format: 'relay', operations: 3, rewritten: 2, mapping: 'relay/persisted_queries.v6-map.json' });
    expect(apollo.manual.map((m) => m.line)).toEqual([23, 35]);
    expect(apollo.manual[0]!.reason).toMatch(/^persisted operation bc5d0981ef05947c/);
    expect(apollo.manual[1]!.reason).toMatch(/^persisted operation Mixed \(id 19907d3d26b6d664/);
    expect(apollo.manual[0]!.reason).toContain('does not parse');
    expect(apollo.manual[1]!.reason).toContain('`userFavourites` is neither a v5 flat query field');
    for (const m of apollo.manual) expect(m.reason).toContain('regenerate the manifest and rerun `ergraph-migrate v5-to-v6`');
    expect(apollo.notForThisApi.map((m) => m.line)).toEqual([29]);
    expect(report.files.find((f) => f.file === RELAY)!.notForThisApi).toHaveLength(1);
    const markdown = toMarkdown(report);
    expect(markdown).toContain('## Persisted-query manifests');
    expect(markdown).toContain(
      '- persisted-query-manifest.json (Apollo persisted query list): 2 of 6 operations rewritten, new ids (sha256 of the new body), 4 left as they are',
    );
    expect(markdown).toContain('relay/persisted_queries.json (Relay persisted queries map): 2 of 3 operations rewritten, ids kept');
    expect(markdown).toContain("createCompatHandler(handler, { persisted: { mapping: 'persisted-query-manifest.v6-map.json' } })");
  });

  it('is idempotent: a second run changes nothing and leaves the mapping as it is', async () => {
    const dir = copyInput();
    await migrate(dir);
    const first = readTree(dir);
    const second = await migrate(dir);
    expect(second.summary.changed).toBe(0);
    expect(second.files.filter((f) => f.companionOf)).toEqual([]);
    expect(readTree(dir)).toEqual(first);
  });

  it('merges into a mapping an earlier run wrote, and refuses to drop one it cannot read', async () => {
    const dir = copyInput();
    writeFileSync(join(dir, 'persisted-query-manifest.v6-map.json'), JSON.stringify({ earlier: { id: 'x', body: '{ a }', v5Body: '{ b }' } }));
    await migrate(dir);
    const merged = json<Record<string, MapEntry>>(dir, 'persisted-query-manifest.v6-map.json');
    expect(Object.keys(merged)).toHaveLength(3);
    expect(merged.earlier).toEqual({ id: 'x', body: '{ a }', v5Body: '{ b }' });

    const broken = copyInput();
    writeFileSync(join(broken, 'persisted-query-manifest.v6-map.json'), 'not json');
    const report = await migrate(broken);
    const apollo = report.files.find((f) => f.file === APOLLO)!;
    expect(apollo.error).toMatch(/persisted-query-manifest\.v6-map\.json: exists and is not JSON/);
    expect(readFileSync(join(broken, APOLLO), 'utf8')).toBe(readFileSync(join(CASE, 'input', APOLLO), 'utf8'));
    expect(readFileSync(join(broken, 'persisted-query-manifest.v6-map.json'), 'utf8')).toBe('not json');
    // The other manifest is unaffected.
    expect(report.files.find((f) => f.file === RELAY)!.changed).toBe(true);
  });

  it('without a schema, leaves every manifest as it is and lists its operations as pending', async () => {
    const dir = copyInput();
    const report = await migrate(dir, { withSchema: false });
    expect(readTree(dir)).toEqual(readTree(join(CASE, 'input')));
    const apollo = report.files.find((f) => f.file === APOLLO)!;
    // Broken does not parse (manual); the other five select root fields.
    expect(apollo.pending).toHaveLength(5);
    expect(apollo.pending[0]!.reason).toMatch(/^persisted operation Users \(id [0-9a-f]{64}\): no v6 schema was found/);
    expect(apollo.manual).toHaveLength(1);
  });

  it('refuses an Apollo manifest of an unknown version with one clear error', async () => {
    const dir = copyInput();
    const text = readFileSync(join(dir, APOLLO), 'utf8').replace('"version": 1', '"version": 2');
    writeFileSync(join(dir, APOLLO), text);
    const report = await migrate(dir);
    expect(report.files.find((f) => f.file === APOLLO)!.error).toContain('"version": 1 (this one has 2)');
    expect(readFileSync(join(dir, APOLLO), 'utf8')).toBe(text);
  });

  it('ergraph-migrate v5-to-v6 --dry-run prints the diffs, the mapping as a new file, and a line per manifest', async () => {
    const dir = copyInput();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    let out = '';
    const io: CliIO = { cwd: dir, stdout: { write: (s: string) => (out += s) }, stderr: { write: () => undefined } };
    const code = await main(['v5-to-v6', '.', '--schema', SCHEMA_FILE, '--dry-run'], io);
    expect(code).toBe(0);
    expect(out).toContain('--- a/persisted-query-manifest.json');
    expect(out).toContain('+++ b/persisted-query-manifest.v6-map.json');
    expect(out).toMatch(/^\+ +"body": "query Users {\\n  User {\\n    userGetAll: getAll\(limit: 5\)/m);
    expect(out).toMatch(/^manifest: persisted-query-manifest\.json \(Apollo persisted query list\): 2 of 6 operations rewritten.*would be written to persisted-query-manifest\.v6-map\.json/m);
    expect(out).toMatch(/^manual: persisted-query-manifest\.json:35:5 \[v5-to-v6\] persisted operation Mixed/m);
    // Mappings are counted apart: never more files changed than scanned.
    const summary = /^v5-to-v6: (\d+) files scanned, (\d+) would change, .*?(\d+) mapping files to write/m.exec(out);
    expect(summary, out).not.toBeNull();
    expect(Number(summary![2])).toBeLessThanOrEqual(Number(summary![1]));
    expect(Number(summary![3])).toBe(2);
    expect(existsSync(join(dir, 'persisted-query-manifest.v6-map.json'))).toBe(false);
    expect(readTree(dir).get(APOLLO)).toBe(readTree(join(CASE, 'input')).get(APOLLO));
  });

  it('bin/ergraph-migrate v5-to-v6 writes the manifests and mappings in a clean git tree and reports them', () => {
    const dir = copyInput();
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'input');
    const run = spawnSync(process.execPath, [BIN, 'v5-to-v6', '.', '--schema', SCHEMA_FILE, '--report', 'migration.md'], { cwd: dir, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^manifest: relay\/persisted_queries\.json \(Relay persisted queries map\): 2 of 3 operations rewritten, ids kept/m);
    const tree = readTree(dir);
    const report = tree.get('migration.md')!;
    tree.delete('migration.md');
    for (const file of [...tree.keys()]) if (file.startsWith('.git/')) tree.delete(file);
    expect(tree).toEqual(readTree(join(CASE, 'expected')));
    expect(report).toContain('## Persisted-query manifests');
    expect(report).toContain('| `persisted-query-manifest.json:35:5` | v5-to-v6 | persisted operation Mixed');
  });
});
