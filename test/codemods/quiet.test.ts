/**
 * Files no step has work in are read for the module graph and not held as trees. Whether a file
 * binds an ergraph export its text never spells is then read from its module facts
 * (`bindsHiddenNamesIn`), and that answer must agree with the tree's (`bindsHiddenNames`):
 * a file wrongly judged quiet would silently not be migrated.
 */
import { expect, it } from 'vitest';
import { parseSource, parseUnlinked } from '../../codemods/lib/parse.js';
import { Project, scanModule } from '../../codemods/lib/project.js';
import { bindsHiddenNames, bindsHiddenNamesIn, scriptOf } from '../../codemods/lib/script.js';

const BARREL = "export { ErDiagram as Diagram, LoaderDepend as Dep } from 'ergraph';\nexport * from './more';\n";
const MORE = "export { Relationship } from 'ergraph';\nexport const helper = 1;\n";
const FILES: Record<string, string> = {
  '/app/lib.ts': BARREL,
  '/app/more.ts': MORE,
  '/app/aliased.ts': "import { Diagram } from './lib';\nexport const d = new Diagram({ configs: [] });\n",
  '/app/required.ts': "const { Dep: depend } = require('./lib');\nmodule.exports = depend;\n",
  '/app/renamed-local.ts': "import { Dep as D } from './lib.js';\nexport const x = D;\n",
  '/app/spelled.ts': "import { Relationship } from './lib';\nexport const r = Relationship;\n",
  '/app/through-star.ts': "import { Relationship as R, helper } from './more';\nexport const r = [R, helper];\n",
  '/app/plain.ts': "import { helper } from './lib';\nexport const h = helper;\n",
  '/app/namespace.ts': "import * as lib from './lib';\nexport const n = lib;\n",
  '/app/elsewhere.ts': "import { Diagram } from './nowhere';\nexport const d = Diagram;\n",
};

it('reads hidden ergraph names from module facts as the tree does', () => {
  const trees = Object.entries(FILES).map(([file, text]) => parseSource(text, file));
  const project = new Project(trees.map(scanModule));
  const byTree: Record<string, boolean> = {};
  const byFacts: Record<string, boolean> = {};
  for (const sf of trees) {
    const script = scriptOf(sf, project);
    byTree[sf.fileName] = bindsHiddenNames(script);
    byFacts[sf.fileName] = bindsHiddenNamesIn(project.facts(sf.fileName)!, sf.text, project);
  }
  expect(byFacts).toEqual(byTree);
  // The cases are not all alike: some bind hidden names, some do not.
  expect(Object.entries(byTree).filter(([, hidden]) => hidden).map(([file]) => file).sort()).toEqual(['/app/aliased.ts', '/app/renamed-local.ts', '/app/required.ts']);
});

it('reads the same module facts from a tree without parent links', () => {
  const text = [
    "import Default, { a as b, type T } from './m';",
    "import * as ns from '../n';",
    "const { x: y, 'z': w } = require('./r');",
    "const whole = await import('./w');",
    "export class Entity {}",
    "declare namespace Space { class Inner {} }",
    "export { b as c, Default };",
    "export { q as r } from './q';",
    "export * from './star';",
    "export * as all from './all';",
    "export function f() {}",
    "export enum E { A }",
    "export const v = 1;",
  ].join('\n');
  const facts = scanModule(parseUnlinked(text, '/app/m.ts'));
  expect(facts).toEqual(scanModule(parseSource(text, '/app/m.ts')));
  expect(Object.keys(facts.imports).length).toBeGreaterThan(3);
  expect(facts.stars).toEqual(['./star']);
});
