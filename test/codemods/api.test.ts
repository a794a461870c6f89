/** The programmatic API as users import it: `ergraph/migrate`. */
import { cpSync, writeFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyTransform, loadSchema, MissingOptionError, ParseError, runMigration, toMarkdown, transforms, upgradePath } from 'ergraph/migrate';
import { loadSchema as v5ToV6LoadSchema } from '../../codemods/v5-to-v6/schema.js';
import { FIXTURES, readTree } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ergraph-migrate-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ergraph/migrate', () => {
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

  it('rejects an unknown transform name', async () => {
    await expect(runMigration({ transforms: ['v9-to-v10'], paths: [dir], cwd: dir })).rejects.toThrow(/unknown transform: v9-to-v10/);
  });
});
