/** `graphqlApp`'s /er route (issue 16.1): where it lives, its formats, and turning it off. */
import { describe, expect, it } from 'vitest';
import { erPicture, GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { diagram } from '../graphql/domain.js';
import { ICON_LINK } from '../../src/graphql/page.js';

const handler = new GraphQLHandler(diagram);

describe('GET /er', () => {
  it('is an HTML page with the SVG drawn on the server: no script, nothing loaded', async () => {
    const response = await graphqlApp(handler).request('/er');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="er-diagram"');
    expect(html).toContain(ICON_LINK); // inline: the browser asks for no /favicon.ico
    expect(html.replace(ICON_LINK, '')).not.toMatch(/<script|<link|src=/);
    expect(html).toContain('3 entities, 7 relationships');
  });

  it('answers the text formats of ergraph er, and the bare SVG', async () => {
    const app = graphqlApp(handler);
    const json = await app.request('/er?format=json');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toEqual(erPicture(handler.diagram));
    expect(await (await app.request('/er?format=mermaid')).text()).toMatch(/^erDiagram\n/);
    expect(await (await app.request('/er?format=dot')).text()).toMatch(/^digraph er \{/);
    const svg = await app.request('/er?format=svg');
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toMatch(/^<svg /);
    const bad = await app.request('/er?format=png');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe('Unknown format "png": use one of mermaid, dot, json, svg, html');
  });

  it('lives beside the endpoint, links to its GraphiQL, and can move or be turned off', async () => {
    const nested = graphqlApp(handler, { path: '/tasks/graphql' });
    const html = await (await nested.request('/tasks/er')).text();
    expect(html).toContain('href="/tasks/graphql?docs=User"');
    expect((await nested.request('/er')).status).toBe(404);
    expect((await graphqlApp(handler, { er: { path: '/diagram' } }).request('/diagram')).status).toBe(200);
    expect((await graphqlApp(handler, { er: false }).request('/er')).status).toBe(404);
    // no GraphiQL (e.g. production), no page that points at it
    expect((await graphqlApp(handler, { graphiql: false }).request('/er')).status).toBe(404);
  });

  it('GraphiQL reads ?docs= (the page script opens the docs at that type), and ?docs alone still gets the page', async () => {
    const page = await graphqlApp(handler).request('/graphql?docs=Task', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("new URL(window.location.href).searchParams.get('docs')");
    expect(html).toContain('explorer.push({ name: type.name, def: type })');
  });
});
