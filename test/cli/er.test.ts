/** `ergraph er --app <module> --format mermaid|dot|json`, run as the bin (issue 16.1). */
import { describe, expect, it } from 'vitest';
import { erDot, erMermaid, erPicture, erSvg } from 'ergraph';
import { diagram, services } from '../picture/shop.js';
import { run, spawnCli } from './helpers.js';

const SHOP = 'test/picture/shop.ts';

describe('ergraph er', () => {
  it('prints the JSON model of the app with its use-case services and federation members', async () => {
    const cli = spawnCli(['er', '--app', SHOP, '--format', 'json']);
    expect(await cli.exit()).toBe(0);
    expect(cli.stderr()).toBe('');
    const printed = JSON.parse(cli.stdout());
    expect(printed).toEqual(erPicture(diagram, { services }));
    expect(printed.entities.map((e: { name: string }) => e.name)).toEqual(['Customer', 'Order']);
    expect(printed.services[0].name).toBe('OrderService');
    expect(printed.members[0].relationships[0]).toMatchObject({ from: 'Customer', to: 'Review', joinKey: 'customerId' });
  }, 60_000);

  it('prints Mermaid by default, and DOT with --format dot', async () => {
    const mermaid = spawnCli(['er', '--app', SHOP]);
    expect(await mermaid.exit()).toBe(0);
    expect(mermaid.stdout()).toBe(erMermaid(erPicture(diagram, { services })));
    expect(mermaid.stdout()).toContain('Customer ||--o{ Order : "orders (fk id) 1:N"');

    const dot = await run(['er', '--app', SHOP, '--format', 'dot']);
    expect(dot.code).toBe(0);
    expect(dot.stdout).toBe(erDot(erPicture(diagram, { services })));
  }, 60_000);

  it('prints the SVG drawing of the /er page with --format svg', async () => {
    const svg = await run(['er', '--app', SHOP, '--format', 'svg']);
    expect(svg.stderr).toBe('');
    expect(svg.code).toBe(0);
    expect(svg.stdout).toBe(erSvg(erPicture(diagram, { services })));
    expect(svg.stdout).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('draws a module that exports only its ER diagram', async () => {
    const { diagram: notes } = await import('./fixtures/diagram-only.js');
    const { code, stdout, stderr } = await run(['er', '--app', 'test/cli/fixtures/diagram-only.ts']);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toBe(erMermaid(erPicture(notes)));
  });

  it('picks one app of several with --name, and says which exist otherwise', async () => {
    const several = await run(['er', '--app', 'test/cli/fixtures/two-apps.ts']);
    expect(several.code).toBe(1);
    expect(several.stderr).toBe('ergraph: test/cli/fixtures/two-apps.ts has 2 apps (tasks, books): pick one with --name\n');
    const books = await run(['er', '--app', 'test/cli/fixtures/two-apps.ts', '--name', 'books', '--format', 'json']);
    expect(books.code).toBe(0);
    expect(JSON.parse(books.stdout).entities).toEqual([
      { name: 'Book', fields: [{ name: 'id', type: 'Int!' }, { name: 'title', type: 'String!' }], queries: expect.any(Array), mutations: [] },
    ]);
  });

  it('usage errors exit 2 with one line; a missing module exits 1', async () => {
    const format = await run(['er', '--app', SHOP, '--format', 'png']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/^ergraph: .*format.*png.* \(run ergraph --help for usage\)\n$/);
    const noApp = await run(['er']);
    expect(noApp.code).toBe(2);
    expect(noApp.stderr).toMatch(/^ergraph: Missing required argument: app \(run ergraph --help for usage\)\n$/);
    const missing = await run(['er', '--app', 'no/such/module.ts']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^ergraph: app module not found: .*no\/such\/module\.ts\n$/);
  });
});
