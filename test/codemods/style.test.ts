/**
 * Style fidelity (issue 26): comments stay with the code they describe when a construct is split,
 * the project's own import paths and aliases are kept, and every inserted or rewritten line
 * follows the file's quote and semicolon style (or the project's Prettier/EditorConfig).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildSchema } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { applyToFiles, applyTransform } from '../../codemods/apply.js';
import { transforms } from '../../codemods/registry.js';
import { parseSource } from '../../codemods/lib/parse.js';
import { isTextEdit, restyle } from '../../codemods/lib/style.js';
import { clearStyleConfigCache, configuredStyle } from '../../codemods/lib/style-config.js';
import { FIXTURES } from './helpers.js';

const step = (name: string) => transforms.find((t) => t.name === name)!;
const schema = buildSchema(readFileSync(join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql'), 'utf8'));

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Files (and formatter configs) written under a fresh directory; returns their absolute paths. */
function onDisk(files: Record<string, string>): { root: string; path: (name: string) => string } {
  const root = mkdtempSync(join(tmpdir(), 'ergraph-style-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  clearStyleConfigCache();
  return { root, path: (name) => join(root, name) };
}

describe('splitting a MultipleRelationship', () => {
  const source = `import { MultipleRelationship, Link } from 'ergraph';
export class User {
  static __ergraph_relationships__ = [
    /** The user's tasks. */
    new MultipleRelationship({
      field: 'id', // the user's key
      targetKls: [Task],
      links: [
        /**
         * Tasks the user owns.
         */
        new Link({ biz: 'owned', loader: owned }),
        // Tasks the user reviews.
        new Link({ biz: 'reviewed', /* pending too */ loader: reviewed }), // reviewer
      ],
    }),
  ];
}
`;
  const output = applyTransform(step('v3-to-v4'), source).output;
  const lines = output.split('\n').map((l) => l.trim());
  const at = (text: string) => lines.findIndex((l) => l.includes(text));

  it("puts each link's comments above that link's relationship", () => {
    const owned = at("name: 'owned'");
    const reviewed = at("name: 'reviewed'");
    expect(owned).toBeGreaterThan(0);
    expect(at('Tasks the user owns.')).toBeLessThan(owned);
    for (const comment of ['// Tasks the user reviews.', '/* pending too */', '// reviewer']) {
      expect(at(comment), comment).toBeGreaterThan(owned);
      expect(at(comment), comment).toBeLessThan(reviewed);
    }
  });

  it("keeps the MultipleRelationship's own comments above the first part", () => {
    const owned = at("name: 'owned'");
    expect(at("/** The user's tasks. */")).toBeLessThan(owned);
    expect(at("// the user's key")).toBeLessThan(at('Tasks the user owns.'));
  });

  it('lines a moved JSDoc block up under its new first line', () => {
    expect(output).toContain('    /**\n     * Tasks the user owns.\n     */\n    new Relationship(');
  });
});

/** Input in one style (q, s); expected output keeps it on untouched lines and writes new code in (Q, S). */
interface StepCase {
  input(q: string, s: string): Record<string, string>;
  expected(q: string, s: string, Q: string, S: string): Record<string, string>;
}

const CASES: Record<string, StepCase> = {
  'v3-to-v4': {
    input: (q, s) => ({
      'user.ts': `import { MultipleRelationship, Link, LoaderDepend } from ${q}ergraph${q}${s}
import { owned } from ${q}./loaders${q}${s}

const load = LoaderDepend(owned)${s}
export class User {
  static __ergraph_relationships__ = [
    new MultipleRelationship({ field: ${q}id${q}, targetKls: [Task], links: [new Link({ biz: ${q}owned${q}, loader: owned })] }),
  ]${s}
}
`,
    }),
    expected: (q, s, Q) => ({
      'user.ts': `import { Relationship, Loader } from ${q}ergraph${q}${s}
import { owned } from ${q}./loaders${q}${s}

const load = Loader(owned)${s}
export class User {
  static __relationships__ = [
    new Relationship({ fk: ${Q}id${Q}, target: [Task], name: ${Q}owned${Q}, loader: owned }),
  ]${s}
}
`,
    }),
  },
  'v4-to-v5': {
    input: (q, s) => ({ 'diagram.ts': `import { ErDiagram } from ${q}ergraph${q}${s}\nimport { User } from ${q}./user${q}${s}\n\nexport const diagram = new ErDiagram({ configs: [User] })${s}\n` }),
    expected: (q, s) => ({ 'diagram.ts': `import { ErDiagram } from ${q}ergraph${q}${s}\nimport { User } from ${q}./user${q}${s}\n\nexport const diagram = new ErDiagram({ entities: [User] })${s}\n` }),
  },
  'v5.4-to-v5.5': {
    input: (q, s) => ({ 'loaders.ts': `import { diagram } from ${q}./diagram${q}${s}\n\nconst AutoLoad = diagram.createAutoLoad()${s}\nexport const owner = AutoLoad(${q}owner${q})${s}\n` }),
    expected: (q, s, Q, S) => ({
      'loaders.ts': `import { diagram } from ${q}./diagram${q}${s}\nimport { AutoLoad, configGlobalResolver } from ${Q}ergraph${Q}${S}\n\nconfigGlobalResolver(diagram)${S}\nexport const owner = AutoLoad(${q}owner${q})${s}\n`,
    }),
  },
  'v5-to-v6': {
    input: (q, s) => ({
      'client.ts': `export const users = gql\`{ userGetAll(limit: 2) { id } }\`${s}\nawait client.callTool({ name: ${q}get_query_schema${q}, arguments: { name: ${q}userGetAll${q} } })${s}\n`,
    }),
    expected: (q, s, Q) => ({
      'client.ts': `export const users = gql\`{ User { userGetAll: getAll(limit: 2) { id } } }\`${s}\nawait client.callTool({ name: ${q}get_query_schema${q}, arguments: { entity: ${Q}User${Q}, method: ${Q}getAll${Q} } })${s}\n`,
    }),
  },
  'federation-config': {
    input: (q, s) => ({
      'entities.ts': `import { baseEntity, model } from ${q}ergraph${q}${s}\n\nexport const Base = baseEntity()${s}\n\n@Base.entity\nexport class Review extends model({ id: z.int(), productId: z.int() }) {}\n`,
      'app.ts': `import { AutoQueryConfig } from ${q}ergraph/orm${q}${s}\n\nexport const config = new AutoQueryConfig({ batchKeys: { Review: [${q}productId${q}] } })${s}\n`,
    }),
    expected: (q, s, Q, S) => ({
      'entities.ts': `import { baseEntity, model } from ${q}ergraph${q}${s}\n\nexport const Base = baseEntity()${s}\n\n@Base.entity\nexport class Review extends model({ id: z.int(), productId: z.int() }) {\n  static __federation_keys__ = [${Q}productId${Q}]${S}\n}\n`,
      'app.ts': `import { AutoQueryConfig } from ${q}ergraph/orm${q}${s}\n\nexport const config = new AutoQueryConfig({})${s}\n`,
    }),
  },
};

/** Runs a step over files named relative to `root` (absolute when on disk, so formatter configs are found). */
function migrate(name: string, files: Record<string, string>, root = ''): Record<string, string> {
  const named = new Map(Object.entries(files).map(([f, text]) => [root ? join(root, f) : f, text]));
  const out: Record<string, string> = {};
  for (const [file, outcome] of applyToFiles(step(name), named, { schema })) {
    expect(outcome.error, file).toBeUndefined();
    out[root ? file.slice(root.length + 1) : file] = outcome.result?.output ?? '';
  }
  return out;
}

describe.each(Object.keys(CASES))('%s keeps the style of the code it writes', (name) => {
  const c = CASES[name]!;
  it('no semicolons, single quotes: read from the file', () => {
    expect(migrate(name, c.input("'", ''))).toEqual(c.expected("'", '', "'", ''));
  });

  it('semicolons, double quotes: read from the file', () => {
    expect(migrate(name, c.input('"', ';'))).toEqual(c.expected('"', ';', '"', ';'));
  });

  it("the project's Prettier config over the file's own style", () => {
    // Written with semicolons and single quotes, formatted to neither: new code follows Prettier.
    const { root } = onDisk({ '.prettierrc': '{ "semi": false, "singleQuote": false }\n' });
    expect(migrate(name, c.input("'", ';'), root)).toEqual(c.expected("'", ';', '"', ''));
  });

  it('a second run changes nothing in any style', () => {
    for (const [q, s] of [["'", ''], ['"', ';']] as const) {
      const once = migrate(name, c.input(q, s));
      expect(migrate(name, once)).toEqual(once);
    }
  });
});

describe("the project's formatter settings", () => {
  it("package.json's prettier key, with overrides by file", () => {
    const pkg = { name: 'app', prettier: { semi: false, overrides: [{ files: 'legacy/**', options: { semi: true, singleQuote: true } }] } };
    const { path } = onDisk({ 'package.json': JSON.stringify(pkg) });
    expect(configuredStyle(path('src/a.ts'))).toEqual({ quote: '"', semi: false });
    expect(configuredStyle(path('legacy/b.ts'))).toEqual({ quote: "'", semi: true });
  });

  it('a YAML .prettierrc, and the nearest config wins', () => {
    const { path } = onDisk({ '.prettierrc': 'singleQuote: true\nsemi: false # no semicolons\n', 'pkg/.prettierrc.json': '{ "semi": true }' });
    expect(configuredStyle(path('a.ts'))).toEqual({ quote: "'", semi: false });
    expect(configuredStyle(path('pkg/a.ts'))).toEqual({ quote: '"', semi: true });
  });

  it("EditorConfig's quote_type when there is no Prettier config; a JavaScript config is left to the file", () => {
    const { path } = onDisk({ '.editorconfig': 'root = true\n[*]\nquote_type = single\n[*.ts]\nquote_type = double\n', 'js/prettier.config.js': 'export default { semi: false };\n' });
    expect(configuredStyle(path('a.ts'))).toEqual({ quote: '"' });
    expect(configuredStyle(path('a.js'))).toEqual({ quote: "'" });
    expect(configuredStyle(path('js/a.js'))).toEqual({ quote: "'" });
  });

  it('an EditorConfig quote type applies to a migrated file that has no strings of its own to go by', () => {
    const { root } = onDisk({ '.editorconfig': '[*.ts]\nquote_type = double\n' });
    const out = migrate('v5.4-to-v5.5', { 'loaders.ts': 'const AutoLoad = diagram.createAutoLoad();\n' }, root);
    expect(out['loaders.ts']).toBe('import { AutoLoad, configGlobalResolver } from "ergraph";\nconfigGlobalResolver(diagram);\n');
  });
});

describe('restyling written code', () => {
  const noSemi = { quote: "'" as const, semi: false };
  it('keeps a semicolon the next line would otherwise continue through (ASI)', () => {
    expect(restyle('a();\n[1].map(f);\n', noSemi)).toBe('a();\n[1].map(f)\n');
    expect(restyle('a();', noSemi, '\n(b)()')).toBe('a();');
    expect(restyle('a();', noSemi, '\nb()')).toBe('a()');
    expect(restyle('for (;;) x();\n', noSemi)).toBe('for (;;) x()\n');
  });

  it('swaps quotes only where that adds no escape, and leaves templates alone', () => {
    const double = { quote: '"' as const, semi: true };
    expect(restyle("f('a', 'it\\'s', 'say \"hi\"', `b${'c'}`);", double)).toBe('f("a", "it\'s", \'say "hi"\', `b${"c"}`);');
  });

  it('takes edits inside strings, templates and comments for text, and edits between tokens for code', () => {
    const source = "const q = gql`{ a }`; // note\nimport { x } from 'm';\n";
    const sf = parseSource(source, 'a.ts');
    const inTemplate = source.indexOf('a }');
    expect(isTextEdit(sf, { start: inTemplate, end: inTemplate + 1, text: 'b' })).toBe(true);
    expect(isTextEdit(sf, { start: source.indexOf('note'), end: source.indexOf('note') + 4, text: "it's" })).toBe(true);
    const afterImport = source.indexOf("'m'") + 3;
    expect(isTextEdit(sf, { start: afterImport, end: afterImport, text: "\nimport { y } from 'n';" })).toBe(false);
    expect(isTextEdit(sf, { start: source.indexOf("'m'"), end: afterImport, text: "'n'" })).toBe(false);
  });
});

describe("the project's own import paths and aliases", () => {
  const files = (q: string, s: string) => ({
    'tsconfig.json': '{\n  // path aliases\n  "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } }\n}\n',
    'src/lib/eg.ts': `export * from ${q}ergraph${q}${s}\n`,
    'src/lib/partial.ts': `export { LoaderDepend } from ${q}ergraph${q}${s}\n`,
    'src/user.ts': `import { LoaderDepend as LD, MultipleRelationship as MR, Link } from ${q}@/lib/eg${q}${s}
import { LoaderDepend as Dep } from ${q}./lib/partial${q}${s}

export class User {
  static __ergraph_relationships__ = [
    new MR({ field: ${q}id${q}, targetKls: [Task], links: [new Link({ biz: ${q}owned${q}, loader: owned })] }),
  ]${s}
  a = LD(load)${s}
  b = Dep(load)${s}
}
`,
  });

  const run = (q: string, s: string) => {
    const { root, path } = onDisk(files(q, s));
    const scripts = ['src/user.ts', 'src/lib/eg.ts', 'src/lib/partial.ts'];
    const outcomes = applyToFiles(step('v3-to-v4'), new Map(scripts.map((f) => [path(f), files(q, s)[f as keyof ReturnType<typeof files>]])));
    const user = outcomes.get(path('src/user.ts'))!;
    expect(user.error).toBeUndefined();
    return { root, output: user.result!.output, notes: user.result!.notes };
  };

  for (const [q, s] of [["'", ''], ['"', ';']] as const)
    it(`keeps a path-aliased barrel and its aliases, and imports directly only what the barrel may not export (${q}${s || 'no semicolons'})`, () => {
      const { output, notes } = run(q, s);
      expect(output).toBe(`import { Loader as LD, Relationship } from ${q}@/lib/eg${q}${s}
import { Loader as Dep } from ${q}ergraph${q}${s}

export class User {
  static __relationships__ = [
    new Relationship({ fk: ${q}id${q}, target: [Task], name: ${q}owned${q}, loader: owned }),
  ]${s}
  a = LD(load)${s}
  b = Dep(load)${s}
}
`);
      expect(notes.join('\n')).toMatch(/'\.\/lib\/partial' is not known to export Loader \(the v6 name of LoaderDepend\): imported from 'ergraph' as Dep instead/);
    });

  it('adds new names to the relative barrel the file imports ergraph through', () => {
    const out = migrate('v5.4-to-v5.5', {
      'eg.ts': 'export * from "ergraph"\n',
      'diagram.ts': 'import { ErDiagram } from "./eg"\n\nexport const diagram = new ErDiagram({ entities: [] })\nconst AutoLoad = diagram.createAutoLoad()\n',
    });
    expect(out['diagram.ts']).toBe('import { ErDiagram, AutoLoad, configGlobalResolver } from "./eg"\n\nexport const diagram = new ErDiagram({ entities: [] })\nconfigGlobalResolver(diagram)\n');
  });
});

describe('comments move with the federation configuration they describe', () => {
  const files = {
    'entities.ts': "import { baseEntity, model } from 'ergraph';\n\nexport const Base = baseEntity();\n\n@Base.entity\nexport class Review extends model({ id: z.int(), productId: z.int() }) {}\n\n@Base.entity\nexport class Product extends model({ id: z.int() }) {}\n",
    'app.ts': `import { AutoQueryConfig, BatchPageConfig, PageOrder, OrderTerm } from 'ergraph';

export const config = new AutoQueryConfig({
  // keys of the gateway
  batchKeys: {
    /** Reviews are fetched by product. */
    Review: ['productId'],
  },
  batchPages: {
    // newest first
    Review: new BatchPageConfig({ defaultOrder: 'top', orders: { top: new PageOrder([new OrderTerm('stars', 'DESC')]) } }),
  },
  defaultLimit: 5,
});
`,
    'dto.ts': `import { DefineSubset, BatchPageConfig, PageOrder, OrderTerm } from 'ergraph';
import { Product } from './entities';

export class ProductDTO extends DefineSubset(Product, ['id']) {
  /**
   * Best sellers first.
   */
  static __pagination_orders__ = new BatchPageConfig({ defaultOrder: 'best', orders: { best: new PageOrder([new OrderTerm('id', 'DESC')]) } });
}
`,
  };
  const out = migrate('federation-config', files);

  it('puts the comments of a batchKeys or batchPages entry above the static it becomes', () => {
    expect(out['entities.ts']).toContain("  /** Reviews are fetched by product. */\n  static __federation_keys__ = ['productId'];\n  // newest first\n  static __pagination_orders__ = new BatchPageConfig(");
    expect(out['app.ts']).not.toContain('newest first');
    expect(out['app.ts']).not.toContain('Reviews are fetched');
  });

  it('keeps a comment about the removed option itself where it was', () => {
    expect(out['app.ts']).toContain('// keys of the gateway');
  });

  it("moves a DTO's orders with their JSDoc, lined up under the entity's members", () => {
    expect(out['entities.ts']).toContain('  /**\n   * Best sellers first.\n   */\n  static __pagination_orders__ = new BatchPageConfig({ defaultOrder: \'best\'');
    expect(out['dto.ts']).not.toContain('Best sellers');
  });

  it('is a no-op on its own output', () => {
    expect(migrate('federation-config', out)).toEqual(out);
  });
});
