/**
 * federation-config's text test for a run (`wantsInRun`): a file with a class is wanted only when
 * some file of the run moves keys or orders to entity classes (AutoQueryConfig, DTO orders), or
 * when the step edits that file's own text. Narrowed, a run must come out exactly as with the
 * broad test, which wants every class.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import federation from '../../codemods/federation-config/index.js';
import { runMigration } from '../../codemods/runner/run.js';
import type { Transform } from '../../codemods/types.js';

const dir = mkdtempSync(join(tmpdir(), 'ergraph-federation-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The same step with only its broad text test: every file that says `class`. */
const broad: Transform = { ...federation, script: { ...federation.script!, wantsInRun: undefined } };

/** Files no other file's facts reach: whatever changes here is the file's own text. */
const OWN: Record<string, string> = {
  'wrong-entry.ts': "import { Entity, ErDiagram } from 'ergraph/orm';\nexport class Product {}\nexport const d = new ErDiagram([new Entity({ kls: Product })]);\n",
  're-export.ts': "export { Resolver } from 'ergraph/graphql';\nexport class Holder {}\n",
  'order-names.ts': "import { PageOrder, OrderTerm } from 'ergraph';\nexport class Page {}\nexport const t: OrderTerm | undefined = undefined;\n",
  'plain.ts': 'export class Plain {}\n',
  'no-class.ts': "import { Entity } from 'ergraph/orm';\nexport const e = Entity;\n",
};

/** A run where an AutoQueryConfig moves keys to an entity whose file says nothing else. */
const MOVED: Record<string, string> = {
  ...OWN,
  'entity.ts': 'export class Sku {\n  id = 0;\n}\n',
  'config.ts': "import { AutoQueryConfig } from 'ergraph/orm';\nimport { Sku } from './entity';\nexport const c = new AutoQueryConfig({ batchKeys: { Sku: ['id'] } });\nexport { Sku };\n",
};

async function outputs(files: Record<string, string>, step: Transform, name: string) {
  const root = join(dir, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const report = await runMigration({ transforms: [step], paths: [root], cwd: root, dryRun: true, gitignore: false, workers: 0 });
  return Object.fromEntries(report.files.map((f) => [f.file, { after: f.after, manual: f.manual, notes: f.notes, error: f.error }]));
}

it('wants a class file only for its own edits when nothing in the run moves to classes', () => {
  const own = federation.script!.wantsInRun!(Object.values(OWN));
  expect(Object.keys(OWN).filter((file) => own(OWN[file]!))).toEqual(['wrong-entry.ts', 're-export.ts', 'order-names.ts']);
  // Once a file moves keys to classes, any class may be their entity.
  const moved = federation.script!.wantsInRun!(Object.values(MOVED));
  expect(moved('export class Plain {}\n')).toBe(true);
  const dtoOrders = federation.script!.wantsInRun!([...Object.values(OWN), 'export class Dto extends DefineSubset(Sku, []) {\n  static __pagination_orders__ = [];\n}\n']);
  expect(dtoOrders('export class Plain {}\n')).toBe(true);
});

it('moves a wrong-entry import in a class file, as the broad test did', async () => {
  const narrowed = await outputs(OWN, federation, 'own-narrowed');
  expect(narrowed).toEqual(await outputs(OWN, broad, 'own-broad'));
  expect(narrowed['wrong-entry.ts']!.after).toContain("from 'ergraph';");
  expect(narrowed['re-export.ts']!.after).toContain("from 'ergraph';");
  expect(narrowed['plain.ts']!.after).toBe(OWN['plain.ts']);
});

it('adds the keys to an entity class in a file that says nothing else, as the broad test did', async () => {
  const narrowed = await outputs(MOVED, federation, 'moved-narrowed');
  expect(narrowed).toEqual(await outputs(MOVED, broad, 'moved-broad'));
  expect(narrowed['entity.ts']!.after).toContain("static __federation_keys__ = ['id'];");
});
