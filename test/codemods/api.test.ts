/** The programmatic API as users import it: `ergraph-migrate`'s main export. */
import { cpSync, writeFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyToFiles, applyTransform, loadSchema, ParseError, runMigration, toMarkdown, transforms, upgradePath } from 'ergraph-migrate';
import { loadSchema as v5ToV6LoadSchema } from '../../codemods/v5-to-v6/schema.js';
import { FIXTURES, readTree } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ergraph-migrate-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ergraph-migrate', () => {
  it('exposes the registered transforms and applies one to a string', () => {
    const v4 = transforms.find((t) => t.name === 'v4-to-v5')!;
    const result = applyTransform(v4, "import { ErDiagram } from 'ergraph';\nnew ErDiagram({ configs: [] });\n", 'd.ts');
    expect(result.output).toBe("import { ErDiagram } from 'ergraph';\nnew ErDiagram({ entities: [] });\n");
    expect(() => applyTransform(v4, 'new ErDiagram({', 'bad.ts')).toThrow(ParseError);
  });

  it('runMigration chains transforms by name over a tree and reports', async () => {
    cpSync(join(FIXTURES, 'federation-config/cross-file/input'), dir, { recursive: true });
    const report = await runMigration({ transforms: upgradePath('5.5', '6').slice(0, 1), paths: ['.'], cwd: dir, workers: 0 });
    expect(report.transforms).toEqual(['federation-config']);
    expect(report.summary).toMatchObject({ files: 4, changed: 3, manual: 0, errors: 0 });
    expect(readTree(dir)).toEqual(readTree(join(FIXTURES, 'federation-config/cross-file/expected')));
    expect(toMarkdown(report)).toContain('- `entities.ts` (federation-config)');
    expect(readFileSync(join(dir, 'dto.ts'), 'utf8')).toContain("federationKey: 'sku'");
  });

  it('runMigration without a schema runs what needs none and reports the documents pending', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'ergraph-migrate-api-'));
    try {
      cpSync(join(FIXTURES, 'federation-config/cross-file/input'), fresh, { recursive: true });
      writeFileSync(join(fresh, 'users.graphql'), '{ userGetAll }\n');
      const report = await runMigration({ transforms: upgradePath('5.5', '6'), paths: ['.'], cwd: fresh, workers: 0, dryRun: true });
      expect(report.summary).toMatchObject({ pending: 1, errors: 0 });
      expect(report.files.find((f) => f.file === 'entities.ts')?.changed).toBe(true);
      expect(report.files.find((f) => f.file === 'users.graphql')?.pending[0]?.reason).toMatch(/^no v6 schema was found/);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('loadSchema is the v5-to-v6 loader itself (it owns the --schema formats)', () => {
    expect(loadSchema).toBe(v5ToV6LoadSchema);
  });

  it('migrates old names a barrel renames, although the file never spells them (the text pre-filter cannot see them)', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'ergraph-migrate-barrel-'));
    try {
      const lib = "export { ErDiagram as Diagram, LoaderDepend as Dep } from 'ergraph';\n";
      const app = "import { Diagram, Dep } from './lib';\nexport const d = new Diagram({ configs: [] });\nexport const f = (loader = Dep(load)) => loader;\n";
      writeFileSync(join(tree, 'lib.ts'), lib);
      writeFileSync(join(tree, 'app.ts'), app);
      const report = await runMigration({ transforms: ['v3-to-v4', 'v4-to-v5'], paths: ['.'], cwd: tree, workers: 0, dryRun: true, gitignore: false });
      const after = report.files.find((f) => f.file === 'app.ts')!.after;
      expect(after).toContain('new Diagram({ entities: [] })');
      expect(after).not.toContain('Dep(load)');
      // The same through applyToFiles (each step alone over the set of files).
      const v4 = transforms.find((t) => t.name === 'v4-to-v5')!;
      const alone = applyToFiles(v4, new Map([['lib.ts', lib], ['app.ts', app]]));
      expect(alone.get('app.ts')!.result!.output).toContain('new Diagram({ entities: [] })');
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('rejects an unknown transform name', async () => {
    await expect(runMigration({ transforms: ['v9-to-v10'], paths: [dir], cwd: dir })).rejects.toThrow(/unknown transform: v9-to-v10/);
  });
});
