/** Optional peers: a command that needs missing ones says so in one line, naming all of them and the install command. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCommand, isInstalled, MissingPeerError, missingPeers, requirePeers, usageStorePeers } from '../../src/peers/peers.js';

describe('optional peers', () => {
  it('finds what this checkout has installed, and not what it lacks', () => {
    expect(isInstalled('drizzle-orm')).toBe(true);
    expect(missingPeers(['pg', 'no-such-package-ergraph', 'drizzle-orm', 'nor-this-one-ergraph'])).toEqual(['no-such-package-ergraph', 'nor-this-one-ergraph']);
    expect(() => requirePeers('x', ['pg', 'drizzle-orm'])).not.toThrow();
  });

  it('one line naming every missing package and the install command', () => {
    const error = (() => {
      try {
        requirePeers('ergraph compat report --database postgres:', ['pg', 'no-such-package-ergraph', 'nor-this-one-ergraph'], {});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MissingPeerError);
    expect((error as Error).message).toBe(
      'ergraph compat report --database postgres: needs no-such-package-ergraph and nor-this-one-ergraph, which are not installed: npm install no-such-package-ergraph nor-this-one-ergraph',
    );
    expect((error as Error).message).not.toContain('\n');
  });

  it("the install command names the majors ergraph's peer ranges want, in the package manager that runs it", () => {
    expect(installCommand(['pg', 'drizzle-orm'], {})).toMatch(/^npm install pg@\d+ drizzle-orm@0\.\d+$/);
    // A folder of no project: the manager that runs the command decides.
    const nowhere = mkdtempSync(join(tmpdir(), 'ergraph-peers-'));
    try {
      expect(installCommand(['@electric-sql/pglite'], { npm_config_user_agent: 'pnpm/9.15.0 npm/? node/v20.19.0 linux x64' }, nowhere)).toMatch(/^pnpm add @electric-sql\/pglite@0\.\d+$/);
      expect(installCommand(['tsx'], { npm_config_user_agent: 'yarn/1.22.22 npm/? node/v20.19.0 linux x64' }, nowhere)).toMatch(/^yarn add tsx@4$/);
    } finally {
      rmSync(nowhere, { recursive: true });
    }
  });

  it('usage databases: node-postgres or PGlite, each with drizzle-orm; memory: needs none', () => {
    expect(usageStorePeers('postgres://u@h/db')).toEqual(['pg', 'drizzle-orm']);
    expect(usageStorePeers('postgresql://u@h/db')).toEqual(['pg', 'drizzle-orm']);
    expect(usageStorePeers('pglite:./.usage')).toEqual(['@electric-sql/pglite', 'drizzle-orm']);
    expect(usageStorePeers('memory:')).toEqual([]);
  });
});
