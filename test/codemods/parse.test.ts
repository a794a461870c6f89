/** The shared parse the runner hands to every step, and the rule that decides on worker threads. */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodesOf } from '../../codemods/lib/nodes.js';
import { PARSE_OPTIONS, parseSource, scriptKindFor, ts } from '../../codemods/lib/parse.js';
import { defaultWorkers, PARALLEL_THRESHOLD, POOLED_COST } from '../../codemods/runner/pooled.js';

const SOURCE = `import { Relationship as R, LoaderDepend } from 'ergraph';
/** A documented entity. @deprecated use Other */
@modelConfig()
export class Task extends Base {
  static __ergraph_relationships__ = [new R({ field: 'ownerId', targetKls: () => Task, loader: load })];
  resolveOwner(loader = LoaderDepend(load)) {
    const view = <div title={\`\${this.id}\`}>{loader.load(this.ownerId)}</div>;
    return view ?? gql\`query Q { userGetAll }\`;
  }
}
const { x = 1, ...rest } = require('ergraph');
`;

/** Every node with its parent's kind and range, in walk order. */
function parents(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    out.push(`${ts.SyntaxKind[node.kind]}@${node.pos} <- ${node.parent ? `${ts.SyntaxKind[node.parent.kind]}@${node.parent.pos}` : 'none'}`);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  return out;
}

describe('parseSource', () => {
  it('links every parent as TypeScript does, from the walk that indexes the tree', () => {
    const file = 'task.tsx';
    const ours = parseSource(SOURCE, file);
    const theirs = ts.createSourceFile(file, SOURCE, PARSE_OPTIONS, true, scriptKindFor(file));
    const linked = parents(ours);
    expect(linked.length).toBeGreaterThan(80);
    expect(linked.filter((l) => l.endsWith('<- none'))).toEqual([]);
    expect(linked).toEqual(parents(theirs));
  });

  it('indexes the nodes the steps read, identifiers by name on demand', () => {
    const sf = parseSource(SOURCE, 'task.tsx');
    const index = nodesOf(sf);
    expect(index.classes.map((c) => c.name!.text)).toEqual(['Task']);
    expect(index.news.map((n) => n.expression.getText(sf))).toEqual(['R']);
    expect(index.calls.map((c) => c.expression.getText(sf))).toEqual(['modelConfig', 'LoaderDepend', 'loader.load', 'require']);
    expect(index.tagged).toHaveLength(1);
    expect(index.identifiers('Task').map((id) => id.parent.kind)).toEqual([ts.SyntaxKind.ClassDeclaration, ts.SyntaxKind.ArrowFunction]);
    expect(index.identifiers('nowhere')).toEqual([]);
    expect(nodesOf(sf)).toBe(index);
  });

  it('answers identifiers by name the same way once it maps every name at once (a file asked about many)', () => {
    const names = Array.from({ length: 40 }, (_, i) => `n${i}`);
    const source = `${names.map((n, i) => `const ${n} = ${i};`).join('\n')}\nexport const all = [${names.join(', ')}, n3, n3];\n`;
    const sf = parseSource(source, 'many.ts');
    const filtered = (name: string) => nodesOf(sf).allIdentifiers.filter((id) => id.text === name);
    // Past the first names asked one by one, the rest come from one map of the whole file.
    for (const name of [...names, 'all', 'nowhere', 'n3']) {
      const found = nodesOf(sf).identifiers(name);
      expect(found, name).toEqual(filtered(name));
      expect(found.every((id, i) => id === filtered(name)[i]), name).toBe(true);
    }
    expect(nodesOf(sf).identifiers('n3')).toHaveLength(4);
  });

  it('still reports the first syntax error with its place', () => {
    expect(() => parseSource('const a = ;\n', 'bad.ts')).toThrow(/bad\.ts:1:11/);
  });

  it('says a file with a Flow pragma is Flow, which it does not read', () => {
    const flow = "/**\n * @flow strict\n */\nimport { graphql } from 'react-relay';\ntype Props = {| +id: string |};\n";
    expect(() => parseSource(flow, 'Users.js')).toThrow(/^Users\.js:5:15: .* \(a Flow file: ergraph-migrate reads TypeScript and JavaScript; strip its Flow types first, or migrate it by hand\)$/);
    // Only a pragma among the leading comments counts.
    expect(() => parseSource(`const a = ;\n// @flow\n`, 'late.js')).toThrow(/^late\.js:1:11: Expression expected\.$/);
  });
});

describe('held trees', () => {
  // A run holds every wanted tree from its first parse to its apply: a tree or script V8 keeps as a
  // dictionary is kilobytes more for the scavenger to copy, and every read of its fields a hash
  // lookup (a symbol-keyed slot did that to every tree). Only V8's natives can tell, in a child.
  it('stay objects with fast properties after the index, the slots and the script are on them', () => {
    const dist = fileURLToPath(new URL('../../codemods/dist/codemods/lib/', import.meta.url));
    const probe = `
      const { parseSource } = await import(${JSON.stringify(join(dist, 'parse.js'))});
      const { scriptOf, bindsHiddenNames } = await import(${JSON.stringify(join(dist, 'script.js'))});
      const { nodesOf } = await import(${JSON.stringify(join(dist, 'nodes.js'))});
      const sf = parseSource(${JSON.stringify(SOURCE)}, 'task.tsx');
      nodesOf(sf).identifiers('Task');
      const script = scriptOf(sf);
      bindsHiddenNames(script);
      console.log(JSON.stringify([%HasFastProperties(sf), %HasFastProperties(script), script.imports.named.length > 0]));`;
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', probe], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([true, true, true]);
  });
});

describe('loading TypeScript', () => {
  it('is ts-morph\'s own copy, required rather than imported (the ESM import scans the bundle on every start)', async () => {
    expect(ts).toBe((await import('ts-morph')).ts);
    const root = fileURLToPath(new URL('../../codemods/', import.meta.url));
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(30);
    const importing = files.filter((f) => /^import (?!type\b)[^;]*from 'ts-morph'/m.test(readFileSync(join(root, f), 'utf8')));
    expect(importing).toEqual([]);
  });
});

describe('defaultWorkers', () => {
  it('stays in one thread unless spare cores outnumber the pool’s extra cost per file', () => {
    expect(defaultWorkers(2000, 2)).toBe(0);
    expect(defaultWorkers(100_000, 8)).toBe(0);
    expect(defaultWorkers(2000, POOLED_COST + 2)).toBe(POOLED_COST + 1);
    expect(defaultWorkers(PARALLEL_THRESHOLD - 1, 32)).toBe(0);
    expect(defaultWorkers(PARALLEL_THRESHOLD, 32)).toBe(16);
  });
});
