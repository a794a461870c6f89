/**
 * A CommonJS project's module, loaded by the CLI, shares the CLI's instance of the installed ES
 * module packages it requires (ergraph, graphql 17): one `instanceof` world, not a tsx-made copy.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from './helpers.js';

const project = mkdtempSync(join(tmpdir(), 'ergraph-user-module-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function write(file: string, text: string): string {
  const path = join(project, file);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

write('package.json', JSON.stringify({ name: 'cjs-app', version: '1.0.0', type: 'commonjs' }));
// An ES module package as graphql 17 is (.mjs files) and one as ergraph is ("type": "module").
const mjs = write('node_modules/dual-dep/index.mjs', 'export class Thing {}\n');
write('node_modules/dual-dep/package.json', JSON.stringify({ name: 'dual-dep', exports: { default: './index.mjs' } }));
const js = write('node_modules/esm-dep/index.js', 'export class Other {}\n');
write('node_modules/esm-dep/package.json', JSON.stringify({ name: 'esm-dep', type: 'module', exports: './index.js' }));
const app = write('src/app.ts', "import { Thing } from 'dual-dep';\nimport { Other } from 'esm-dep';\nexport const thing: unknown = Thing, other: unknown = Other;\n");

describe('a CommonJS project\'s TypeScript module under the ergraph CLI\'s tsx hooks', () => {
  it('the ES module packages its TypeScript requires are the instances an import gets', async () => {
    // In a process of its own: Node's loader, not vitest's, and tsx's hooks as the CLI registers them.
    const script = `
      const { registerTypeScript } = await import(${JSON.stringify(pathToFileURL(join(root, 'cli/typescript.ts')).href)});
      const { importUserModule } = await import(${JSON.stringify(pathToFileURL(join(root, 'src/cli-kit/user-module.ts')).href)});
      await registerTypeScript('the app');
      const { exports } = await importUserModule(${JSON.stringify(app)});
      const { Thing } = await import(${JSON.stringify(pathToFileURL(mjs).href)});
      const { Other } = await import(${JSON.stringify(pathToFileURL(js).href)});
      console.log(JSON.stringify({ loaded: typeof exports.thing, mjs: exports.thing === Thing, js: exports.other === Other }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', script], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({ loaded: 'function', mjs: true, js: true });
  });
});
