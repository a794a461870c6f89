/**
 * Issue 26.2: nothing old is left silently. The invariant, over every fixture, every corpus app and
 * the shapes no step can rewrite (computed keys, untyped reads, the user's own barrels): after a
 * run, the version detector's evidence (`codemods/evidence.ts`) finds no old-version site outside
 * the lines the run marked `TODO(ergraph-migrate)`, and each marked file's report lists manual work.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { buildSchema } from 'graphql';
import { readFileSync, existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { evidenceIn, SHAPES, withoutComments } from '../../codemods/evidence.js';
import { compareVersions, findTransform, upgradePath } from '../../codemods/registry.js';
import { runMigration, type MigrationReport } from '../../codemods/runner/run.js';
import { FIXTURES, walk } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function copy(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-leftovers-'));
  dirs.push(dir);
  cpSync(from, dir, { recursive: true });
  return dir;
}

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-leftovers-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** Old-version sites left in `dir` outside marked lines, as `file:line what`. */
function unreported(dir: string, target: string, report: MigrationReport): string[] {
  const left: string[] = [];
  for (const abs of walk(dir).filter((f) => /\.[cm]?[jt]sx?$/.test(f))) {
    const file = relative(dir, abs);
    const sites = evidenceIn(readFileSync(abs, 'utf8')).filter((s) => compareVersions(s.shape.version, target) < 0);
    for (const s of sites) if (!s.reported) left.push(`${file}:${s.line} ${s.shape.what}`);
    const manual = report.files.find((f) => f.file === file)?.manual ?? [];
    if (sites.some((s) => s.reported)) expect(manual.length, `${file}: marked, so its report lists manual work`).toBeGreaterThan(0);
  }
  return left;
}

const fixtureCases = readdirSync(FIXTURES)
  // Folders named after a transform hold its cases; corpus/ and client-corpus/ hold whole apps.
  .filter((t) => findTransform(t))
  .flatMap((transform) => readdirSync(join(FIXTURES, transform)).map((name) => ({ transform, name })));

const TO: Record<string, string> = { 'v3-to-v4': '4', 'v4-to-v5': '5', 'v5.4-to-v5.5': '5.5', 'federation-config': '6', 'v5-to-v6': '6' };

describe('after a run, the detector finds no old-version evidence outside reported lines', () => {
  it.each(fixtureCases)('fixture $transform/$name', async ({ transform, name }) => {
    const dir = copy(join(FIXTURES, transform, name, 'input'));
    const schemaFile = join(FIXTURES, transform, name === 'manifests' ? 'app' : name, 'schema.graphql');
    const options = existsSync(schemaFile) ? { schema: buildSchema(readFileSync(schemaFile, 'utf8')) } : {};
    const report = await runMigration({ transforms: [transform], paths: ['.'], cwd: dir, workers: 0, options, gitignore: false });
    expect(unreported(dir, TO[transform]!, report)).toEqual([]);
  });

  const VERSIONS: Record<string, string> = { 'v3-blog': '3', 'v4-shop': '4', 'v5.4-tasks': '5', 'pre6-reviews': '5.5' };
  it.each(Object.keys(VERSIONS))('corpus app %s through upgrade --to 6', async (app) => {
    const dir = copy(join(FIXTURES, 'corpus', app, 'old'));
    const report = await runMigration({ transforms: upgradePath(VERSIONS[app]!, '6'), paths: ['.'], cwd: dir, workers: 0, gitignore: false });
    expect(unreported(dir, '6', report)).toEqual([]);
  });

  it('what no step can rewrite is marked and reported with file:line and the reason; what it can is migrated', async () => {
    const dir = tree({
      'src/lib/eg.ts': "export * from 'ergraph';\n",
      'src/helpers.ts': [
        "import { LoaderDepend as LD, Relationship } from './lib/eg';",
        '',
        '// A v3 helper reading relationships generically.',
        "export function relsOf(kls: any, marker = '__ergraph_relationships__') {",
        '  return (kls[marker] ?? []).map((r: any) => r.defaultFieldName);',
        '}',
        "export const direct = (kls: any) => kls['__ergraph_relationships__'];",
        "export const keyOf = (kls: any, key: string) => kls[key] ?? '__pydantic_resolve_relationships__';",
        'export const target = (rel: any) => rel?.targetKls;',
        "export const loader = LD(async (ids: number[]) => ids);",
        "export const r = new Relationship({ field: 'ownerId', targetKls: Object, loader });",
        '',
      ].join('\n'),
    });
    const report = await runMigration({ transforms: upgradePath('3', '6'), paths: ['.'], cwd: dir, workers: 0, gitignore: false });
    const text = readFileSync(join(dir, 'src/helpers.ts'), 'utf8');
    // Migrated: the marker as a key (literal, or a default parameter only used as a key), the barrel's old name.
    expect(text).toContain("marker = '__relationships__'");
    expect(text).toContain("kls['__relationships__']");
    expect(text).toMatch(/Loader as LD|\bLoader\(/);
    // Reported: the reads of old property names off untyped objects and a marker string used as a value.
    const manual = report.files.find((f) => f.file === 'src/helpers.ts')!.manual.map((m) => `${m.line} ${m.transform} ${m.reason}`);
    expect(manual).toEqual([
      '5 v3-to-v4 v3 Relationship property read left as it is: v4 Relationship properties are target, name, fkFn, fkNoneDefault, fkNoneDefaultFactory: this read of the v3 name gives undefined',
      '8 v3-to-v4 __ergraph_relationships__ left as it is: the class attribute is __relationships__ since v4; a key built or passed at run time is not followed',
      '9 v3-to-v4 v3 Relationship property read left as it is: v4 Relationship properties are target, name, fkFn, fkNoneDefault, fkNoneDefaultFactory: this read of the v3 name gives undefined',
    ]);
    expect(text).toMatch(/\/\/ TODO\(ergraph-migrate\): v3 Relationship property read left as it is: .*\n {2}return \(kls\[marker\]/);
    expect(unreported(dir, '6', report)).toEqual([]);
    // A rerun adds no second marker and reports the same work.
    const again = await runMigration({ transforms: upgradePath('5.5', '6'), paths: ['.'], cwd: dir, workers: 0, gitignore: false });
    expect(readFileSync(join(dir, 'src/helpers.ts'), 'utf8')).toBe(text);
    expect(again.summary.manual).toBe(3);
  });

  it('text in comments is neither evidence nor left over', () => {
    expect(evidenceIn('// LoaderDepend was here\n/* MultipleRelationship */\nconst re = /\\/\\//; const x = 1;\n')).toEqual([]);
    expect(evidenceIn('const s = `a ${`b`} c`; // LoaderDepend\nLoaderDepend;\n').map((s) => s.line)).toEqual([2]);
  });

  // evidenceIn skips a text that spells none of a shape's words (or lacks one of its alsoWords)
  // without scanning it for comments: right only while every match of the shape's pattern spells
  // one of its words and all of its alsoWords. Each shape's samples,
  // comments and line breaks inside the match included, must hold a site of it (a new shape
  // without samples fails) and every match must spell a word.
  it("every old-API site spells one of its shape's words", () => {
    const samples: Record<string, string[]> = {
      LoaderDepend: ['f(l = LoaderDepend(load))'],
      modelConfig: ['@modelConfig()\nclass A {}'],
      'LoadBy(...)': ["LoadBy /* why */ ('ownerId')"],
      MultipleRelationship: ['new MultipleRelationship({})'],
      __ergraph_relationships__: ['static __ergraph_relationships__ = []', 'x.__pydantic_resolve_relationships__'],
      'Resolver loaderFilters': ['new Resolver({ loaderFilters: {} })', 'new Resolver({ a, globalLoaderFilter })', 'r . loaderFilters'],
      'Relationship targetKls': ['new Relationship({ targetKls /* c */ : A })'],
      'v3 Relationship property read': ['r?.fieldNoneDefaultFactory', "r[ 'defaultFieldName' ]", 'r.\n  fieldFn'],
      'ErDiagram({ configs })': ['new ErDiagram /* old */ ( {\n  configs: [] })', 'new ErDiagram({ a: 1, configs })'],
      'diagram.createAutoLoad()': ['d.createAutoLoad /* x */ ()'],
      'AutoQueryConfig batchKeys/batchPages': ['({ batchPages: true })'],
      'SubsetConfig federationJoinKey': ['({ federationJoinKey: "id" })'],
      'toCamelCase/toGraphqlFieldName': ['toGraphqlFieldName(x)'],
      'MCP get_query_schema({ name })': ["({ name: 'get_mutation_schema', arguments: { name: 'x' } })", 'get_query_schema(/* q */ { name })'],
    };
    for (const shape of SHAPES) {
      const texts = samples[shape.what] ?? [];
      expect(texts, shape.what).not.toEqual([]);
      for (const text of texts) {
        const code = withoutComments(text);
        const matches = [...code.matchAll(new RegExp(shape.pattern.source, shape.pattern.flags))].map((m) => m[0]);
        expect(matches, `${shape.what}: ${text}`).not.toEqual([]);
        for (const match of matches) expect(shape.words.some((word) => match.includes(word)), `${shape.what}: ${match}`).toBe(true);
        for (const match of matches) for (const word of shape.alsoWords ?? []) expect(match, `${shape.what}: ${word}`).toContain(word);
        expect(evidenceIn(text).map((site) => site.shape.what)).toContain(shape.what);
      }
    }
  });
});
