/**
 * The /er page in headless Chromium (issue 16.1): it renders offline (no request leaves the
 * host), draws every entity with its fields and every relationship, and each entity's name opens
 * GraphiQL's docs at that entity's type.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { diagram } from '../graphql/domain.js';
import { chain } from '../picture/chain.js';
import { diagram as shop, services } from '../picture/shop.js';
import type { Page } from 'playwright-core';
import { requireChromium, withPage } from '../support/chromium.js';

/** Edges (by from->to) whose drawn line or curve runs under a box other than its two ends. */
async function hiddenEdges(page: Page): Promise<string[]> {
  return page.$$eval('svg.er-diagram g.er-edge', (edges) => {
    const boxes = Array.from(document.querySelectorAll('svg.er-diagram g[data-entity], svg.er-diagram g[data-member], svg.er-diagram g[data-service]'), (g) => ({
      id: g.getAttribute('data-entity') ?? g.getAttribute('data-member') ?? g.getAttribute('data-service'),
      box: (g.querySelector('rect.er-box') as SVGGraphicsElement).getBBox(),
    }));
    const hidden: string[] = [];
    for (const edge of edges) {
      const [from, to] = [edge.getAttribute('data-from'), edge.getAttribute('data-to')];
      const shape = edge.querySelector('line, path') as SVGGeometryElement;
      const length = shape.getTotalLength();
      for (let i = 1; i < 50; i++) {
        const p = shape.getPointAtLength((length * i) / 50);
        const under = boxes.find(({ id, box }) => id !== from && id !== to && p.x > box.x && p.x < box.x + box.width && p.y > box.y && p.y < box.y + box.height);
        if (under) {
          hidden.push(`${from}->${to} under ${under.id}`);
          break;
        }
      }
    }
    return hidden;
  });
}

describe.runIf(requireChromium())('the ER page in headless Chromium', () => {
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    const app = graphqlApp(new GraphQLHandler(diagram));
    app.route('/', graphqlApp(new GraphQLHandler(shop), { path: '/shop/graphql', er: { services } }));
    app.route('/', graphqlApp(new GraphQLHandler(chain), { path: '/chain/graphql' }));
    await new Promise<void>((ready) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => ready());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('draws every entity, linked to its type in the GraphiQL docs, and every relationship', async () => {
    await withPage(`${base}/er`, 'er-page', async (page, problems) => {
      const entities = await page.$$eval('svg.er-diagram g.er-entity', (gs) =>
        gs.map((g) => {
          const box = (g.querySelector('rect.er-box') as SVGGraphicsElement).getBBox();
          return {
            name: g.getAttribute('data-entity'),
            href: g.querySelector('a.er-docs-link')?.getAttribute('href'),
            title: g.querySelector('.er-title')?.textContent,
            rows: Array.from(g.querySelectorAll('.er-row'), (r) => r.textContent),
            visible: box.width > 0 && box.height > 0,
          };
        }),
      );
      expect(entities.map((e) => e.name)).toEqual(['User', 'Task', 'Comment']);
      for (const e of entities) {
        expect(e.href).toBe(`/graphql?docs=${e.name}`);
        expect(e.title).toBe(e.name);
        expect(e.visible).toBe(true);
      }
      expect(entities[0]!.rows).toEqual(expect.arrayContaining(['id: Int!', 'email: String', 'query getAll: [User!]!']));
      expect(entities[1]!.rows).toContain('mutation create: Task!');

      const edges = await page.$$eval('svg.er-diagram g.er-edge', (gs) =>
        gs.map((g) => `${g.getAttribute('data-from')}->${g.getAttribute('data-to')}: ${g.querySelector('.er-edge-label')?.textContent}`),
      );
      expect(edges).toEqual([
        'User->Task: tasks (fk id) 1:N',
        'User->Task: reviews (fk id) 1:N',
        'Task->User: owner (fk ownerId) N:1',
        'Task->User: reviewer (fk reviewerId) N:1',
        'Task->Comment: comments (fk id) 1:N',
        'Comment->User: author (fk authorId) N:1',
        'Comment->Task: task (fk taskId) N:1',
      ]);
      expect(await hiddenEdges(page)).toEqual([]);
      // boxes do not overlap
      const rects = await page.$$eval('svg.er-diagram rect.er-box', (rs) => rs.map((r) => (r as SVGGraphicsElement).getBBox()).map(({ x, y, width, height }) => ({ x, y, width, height })));
      for (const [i, a] of rects.entries()) {
        for (const b of rects.slice(i + 1)) {
          expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true);
        }
      }
      expect(problems).toEqual([]);
    });
  });

  it('draws federation members and use-case services with their edges, a self reference as a loop', async () => {
    await withPage(`${base}/shop/er`, 'er-page-members-services', async (page, problems) => {
      const drawn = await page.$$eval('svg.er-diagram g[data-entity], svg.er-diagram g[data-member], svg.er-diagram g[data-service]', (gs) =>
        gs.map((g) => `${g.getAttribute('class')} ${g.querySelector('.er-title')?.textContent} ${(g.querySelector('rect.er-box') as SVGGraphicsElement).getBBox().width > 0}`),
      );
      expect(drawn).toEqual(['er-entity Customer true', 'er-entity Order true', 'er-member reviews.Review true', 'er-service OrderService true']);
      expect(await page.getAttribute('g[data-entity="Order"] a.er-docs-link', 'href')).toBe('/shop/graphql?docs=Order');
      expect(await page.textContent('header p')).toContain('2 entities, 3 relationships, 1 federation member, 1 use-case service.');
      expect(await page.$$eval('g.er-edge', (gs) => gs.map((g) => g.getAttribute('class')!.split(' ')[1]))).toEqual([
        'er-edge-relationship',
        'er-edge-relationship',
        'er-edge-relationship',
        'er-edge-remote',
        'er-edge-reads',
      ]);
      expect(await page.$$eval('g.er-edge[data-from="Customer"][data-to="Customer"] path', (ps) => ps.length)).toBe(1);
      expect(await hiddenEdges(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  });

  it('bends an edge around the boxes between its ends, inside the picture', async () => {
    await withPage(`${base}/chain/er`, 'er-page-bends', async (page, problems) => {
      expect(await page.$$eval('g.er-entity', (gs) => gs.length)).toBe(5);
      // A -> C runs past B on the straight line: it must be drawn as a curve around B
      expect(await page.$$eval('g.er-edge[data-from="A"][data-to="C"] path', (ps) => ps.length)).toBe(1);
      expect(await hiddenEdges(page)).toEqual([]);
      const svg = await page.locator('svg.er-diagram').boundingBox();
      for (const label of await page.locator('.er-edge-label').all()) {
        const box = (await label.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(svg!.y);
        expect(box.y + box.height).toBeLessThanOrEqual(svg!.y + svg!.height);
      }
      expect(problems).toEqual([]);
    });
  });

  it("an entity's link opens GraphiQL with its docs at that type", async () => {
    await withPage(`${base}/er`, 'er-page-docs-link', async (page, problems) => {
      await Promise.all([page.waitForURL(/\/graphql\?docs=Task$/), page.click('g.er-entity[data-entity="Task"] a.er-docs-link')]);
      await page.waitForSelector('.graphiql-doc-explorer-title', { timeout: 15_000 });
      await page.waitForFunction(() => document.querySelector('.graphiql-doc-explorer-title')?.textContent === 'Task', null, { timeout: 15_000 });
      const pane = await page.locator('.graphiql-doc-explorer').boundingBox();
      expect(pane!.width).toBeGreaterThan(150); // open, not a collapsed pane holding the title
      // the type's own fields are listed, relationships included
      const fields = await page.$$eval('.graphiql-doc-explorer-field-name', (els) => els.map((e) => e.textContent));
      expect(fields).toEqual(expect.arrayContaining(['id', 'title', 'owner', 'reviewer', 'comments']));
      expect(problems).toEqual([]);
    });
  });
});
