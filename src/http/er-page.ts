/**
 * `GET /er`: the ER picture as a page (an SVG drawn on the server, so nothing loads from
 * anywhere), each entity linking to its type in GraphiQL's docs; `?format=json|mermaid|dot`
 * answers the text forms `ergraph er` prints.
 */
import type { Context } from 'hono';
import { erSvg, formatErPicture, ER_FORMATS, type ErFormat, type ErPicture } from '../picture/index.js';
import { escapeHtml, ICON_LINK } from '../graphql/page.js';

export interface ErPageOptions {
  /** The GraphiQL page; an entity links to `<graphiql>?docs=<Entity>`. */
  graphiql?: string;
  title?: string;
}

/** GraphiQL's page opens its docs at the type named by `docs` (see `graphiqlHtml`). */
export const docsLink = (graphiql: string, type: string) => `${graphiql}?docs=${encodeURIComponent(type)}`;

export function erPageHtml(picture: ErPicture, options: ErPageOptions = {}): string {
  const title = escapeHtml(options.title ?? 'ergraph ER diagram');
  const graphiql = options.graphiql;
  const svg = erSvg(picture, { docsUrl: graphiql ? (type) => docsLink(graphiql, type) : undefined });
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const counts = [
    count(picture.entities.length, 'entity', 'entities'),
    count(picture.relationships.length, 'relationship', 'relationships'),
    ...(picture.members.length ? [count(picture.members.length, 'federation member', 'federation members')] : []),
    ...(picture.services.length ? [count(picture.services.length, 'use-case service', 'use-case services')] : []),
  ].join(', ');
  const formats = ER_FORMATS.map((f) => `<a href="?format=${f}">${f}</a>`).join(' · ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    ${ICON_LINK}
    <style>body { margin: 0; font: 14px sans-serif; color: #1a202c; } header { padding: 12px 20px; border-bottom: 1px solid #e2e8f0; } header p { margin: 4px 0 0; color: #4a5568; } main { overflow: auto; }</style>
  </head>
  <body>
    <header>
      <strong>${title}</strong>
      <p>${escapeHtml(counts)}. Entity names open their type in ${graphiql ? `<a href="${escapeHtml(graphiql)}">GraphiQL</a>` : 'GraphiQL'}'s docs. As text: ${formats}</p>
    </header>
    <main>${svg}</main>
  </body>
</html>
`;
}

/** The response for `GET /er[?format=...]`; an unknown format is a 400 naming the known ones. */
export function erResponse(c: Context, picture: () => ErPicture, options: ErPageOptions): Response {
  const format = c.req.query('format');
  if (format === undefined || format === 'svg' || format === 'html') {
    if (format === 'svg') return c.body(erSvg(picture(), { docsUrl: options.graphiql ? (t) => docsLink(options.graphiql!, t) : undefined }), 200, { 'content-type': 'image/svg+xml; charset=utf-8' });
    return c.html(erPageHtml(picture(), options));
  }
  if (!(ER_FORMATS as readonly string[]).includes(format)) {
    return c.text(`Unknown format ${JSON.stringify(format)}: use one of ${[...ER_FORMATS, 'svg', 'html'].join(', ')}`, 400);
  }
  const type = format === 'json' ? 'application/json' : 'text/plain';
  return c.body(formatErPicture(picture(), format as ErFormat), 200, { 'content-type': `${type}; charset=utf-8` });
}
