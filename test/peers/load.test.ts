/** Optional peers loaded by library code: one line when missing, and the same instance the user's `import` gets. */
import { Column } from 'drizzle-orm';
import { integer, PgTable, pgTable, text } from 'drizzle-orm/pg-core';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { modelFields } from 'ergraph';
import { tableModel, tableOf } from 'ergraph/orm';
import { core, pgCore } from '../../src/orm/drizzle.js';
import { loadPeers, packageOf, type Resolve } from '../../src/peers/load.js';
import { MissingPeerError } from '../../src/peers/peers.js';

/** A resolver as Node's is when `missing` packages are not installed (nothing is uninstalled). */
const without =
  (...missing: string[]): Resolve =>
  (specifier) => {
    if (missing.includes(packageOf(specifier))) {
      throw Object.assign(new Error(`Cannot find package '${packageOf(specifier)}' imported from /app/node_modules/ergraph/dist/src/peers/load.js`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    }
    return fileURLToPath(import.meta.resolve(specifier));
  };

const thrown = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
};

describe('loading optional peers', () => {
  it('a missing package: one line naming it and the install command, nothing loaded', () => {
    const error = thrown(() => loadPeers('ergraph/orm', ['drizzle-orm', 'drizzle-orm/pg-core'], without('drizzle-orm')));
    expect(error).toBeInstanceOf(MissingPeerError);
    expect(error.message).toMatch(/^ergraph\/orm needs drizzle-orm, which is not installed: npm install drizzle-orm@0\.\d+$/);
  });

  it('every missing package in the one line, each once', () => {
    const error = thrown(() => loadPeers('a usage store on postgres://…', ['pg', 'drizzle-orm', 'drizzle-orm/node-postgres'], without('pg', 'drizzle-orm')));
    expect(error.message).toMatch(/^a usage store on postgres:\/\/… needs pg and drizzle-orm, which are not installed: npm install pg@\d+ drizzle-orm@0\.\d+$/);
  });

  it('a failure that is not a missing package is not reported as one', () => {
    const broken: Resolve = () => {
      throw Object.assign(new Error('Package subpath is not defined by "exports"'), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    };
    expect(thrown(() => loadPeers('ergraph/orm', ['drizzle-orm/pg-core'], broken))).not.toBeInstanceOf(MissingPeerError);
  });

  it('scoped package names', () => {
    expect(packageOf('@electric-sql/pglite')).toBe('@electric-sql/pglite');
    expect(packageOf('drizzle-orm/pg-core')).toBe('drizzle-orm');
  });

  it("ergraph's drizzle is the user's own import of it (its ES module build), not a second copy", () => {
    expect(pgCore().PgTable).toBe(PgTable);
    expect(core().Column).toBe(Column);
    const users = pgTable('peer_load_users', { id: integer('id').primaryKey(), name: text('name').notNull() });
    const User = tableModel(users);
    expect(tableOf(User)).toBe(users);
    expect(modelFields(User).map((f) => f.key)).toEqual(['id', 'name']);
  });
});
