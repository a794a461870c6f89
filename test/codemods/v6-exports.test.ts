/**
 * Every import a codemod writes must exist in v6: the table of entry points the transforms use is
 * checked against the built package's real export names (issue 12.3).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REMOVED, V6_ENTRY } from '../../codemods/lib/v6-exports.js';
import { builtPackage } from '../support/built-package.js';

const ENTRIES: Record<string, string> = {
  ergraph: 'dist/src/index.js',
  'ergraph/orm': 'dist/src/orm/index.js',
  'ergraph/federation': 'dist/src/federation/index.js',
  'ergraph/http': 'dist/src/http/index.js',
  'ergraph/usecase': 'dist/src/usecase/index.js',
  'ergraph/mcp': 'dist/src/mcp/index.js',
  'ergraph/compat': 'dist/compat/index.js',
};

async function exportsOf(entry: string): Promise<Set<string>> {
  return new Set(Object.keys(await import(pathToFileURL(join(builtPackage(), ENTRIES[entry]!)).href)));
}

describe('the v6 exports the codemods write', () => {
  it('every name is exported by the entry point the table names', async () => {
    for (const [name, entry] of Object.entries(V6_ENTRY)) expect((await exportsOf(entry)).has(name), `${name} from '${entry}'`).toBe(true);
  });

  it('AutoQueryConfig is in ergraph/orm only; the order profiles in the root and re-exported by ergraph/federation', async () => {
    expect((await exportsOf('ergraph')).has('AutoQueryConfig')).toBe(false);
    for (const name of ['BatchPageConfig', 'PageOrder', 'OrderTerm']) expect((await exportsOf('ergraph/federation')).has(name)).toBe(true);
  });

  it('no removed name is exported by any entry point', async () => {
    for (const entry of Object.keys(ENTRIES)) {
      const names = await exportsOf(entry);
      for (const removed of Object.keys(REMOVED)) expect(names.has(removed), `${removed} in '${entry}'`).toBe(false);
    }
  });
});
