import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/ergraph.js';
import { loadApps } from '../../src/cli/load-apps.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function io() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { cwd: root, stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } },
  };
}

describe('ergraph CLI', () => {
  it('loads the apps a module exports', async () => {
    const apps = await loadApps('test/mcp/fixtures/app.ts', root);
    expect(apps.map((a) => a.name)).toEqual(['demo']);
  });

  it('exits 1 with a clear message for a missing module or one without apps', async () => {
    const missing = io();
    expect(await main(['mcp', '--app', 'no/such/module.ts'], missing.io)).toBe(1);
    expect(missing.out.stderr).toBe(`ergraph: app module not found: ${root}no/such/module.ts\n`);

    const noApps = io();
    expect(await main(['mcp', '--app', 'test/mcp/fixture.ts'], noApps.io)).toBe(1);
    expect(noApps.out.stderr).toContain('test/mcp/fixture.ts must export the MCP apps');
  });

  it('exits 2 on usage errors', async () => {
    const noCommand = io();
    expect(await main([], noCommand.io)).toBe(2);
    expect(noCommand.out.stderr).toContain('give a command');
    const noApp = io();
    expect(await main(['mcp'], noApp.io)).toBe(2);
    expect(noApp.out.stderr).toContain('app');
  });
});
