/**
 * The house, one way up (issue 16.6): src/er → src/resolver → src/graphql / src/orm / src/picture → the
 * surfaces → compat/ → the CLIs and codemods. madge reads the runtime imports (type-only imports
 * erase at build time and cannot form a loading cycle); a part may import only parts below it.
 */
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const RANK: Record<string, number> = {
  'src/telemetry': 0,
  'src/er': 0,
  'src/resolver': 1,
  'src/graphql': 2,
  'src/orm': 2,
  'src/schema': 2,
  'src/picture': 2,
  'src/http': 3,
  'src/mcp': 3,
  'src/federation': 3,
  'src/usecase': 4,
  'src/index.ts': 4,
  compat: 5,
  // What both command lines share (usage errors, loading a user's module): below both of them.
  'src/cli-kit': 6,
  codemods: 7,
  'src/cli': 8,
};
const partOf = (file: string) => file.match(/^(src\/[^/]+|compat|codemods)/)?.[1] ?? file;

describe('architecture', async () => {
  const graph = await madge(['src', 'compat', 'codemods'], {
    fileExtensions: ['ts'],
    tsConfig: 'tsconfig.json',
    detectiveOptions: { ts: { skipTypeImports: true }, es6: { skipTypeImports: true } },
  });
  const imports = graph.obj();

  it('reads every source file', () => {
    expect(Object.keys(imports).length).toBeGreaterThan(150);
    expect(Object.keys(imports)).toContain('src/graphql/handler.ts');
  });

  it('has no import cycles', () => {
    expect(graph.circular()).toEqual([]);
  });

  it('imports only downwards between parts', () => {
    const upward: string[] = [];
    for (const [file, deps] of Object.entries(imports)) {
      for (const dep of deps) {
        const [from, to] = [partOf(file), partOf(dep)];
        expect(RANK[from], `${file} is in no known part`).toBeDefined();
        expect(RANK[to], `${dep} is in no known part`).toBeDefined();
        if (RANK[to]! > RANK[from]!) upward.push(`${file} -> ${dep}`);
      }
    }
    expect(upward).toEqual([]);
  });

  // Two top-level commands share helpers through src/cli-kit; neither reaches into the other's
  // folder. `ergraph` may use the migration toolchain only through its public entry.
  it('keeps the two command lines apart', () => {
    const crossing: string[] = [];
    for (const [file, deps] of Object.entries(imports)) {
      for (const dep of deps) {
        if (partOf(file) === 'codemods' && partOf(dep) === 'src/cli') crossing.push(`${file} -> ${dep}`);
        if (partOf(file) === 'src/cli' && partOf(dep) === 'codemods' && dep !== 'codemods/index.ts') crossing.push(`${file} -> ${dep}`);
      }
    }
    expect(crossing).toEqual([]);
  });
});
