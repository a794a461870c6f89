/**
 * `ergraph serve`'s `/`: where everything is. A browser (Accept: text/html first) gets a page of
 * links; anything else — `curl`, a client asking for application/json — the same facts as JSON.
 */
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import { escapeHtml, ICON_LINK } from '../src/graphql/page.js';

export interface IndexApp {
  name: string;
  graphql: string;
  er: string;
}

function indexHtml(apps: readonly IndexApp[], mcp: string, origin: string): string {
  const rows = apps
    .map((a) => `<li><strong>${escapeHtml(a.name)}</strong>: <a href="${escapeHtml(a.graphql)}">GraphiQL</a> · <a href="${escapeHtml(a.er)}">ER diagram</a> · endpoint <code>POST ${escapeHtml(a.graphql)}</code></li>`)
    .join('\n');
  const client = escapeHtml(JSON.stringify({ mcpServers: { ergraph: { url: `${origin}${mcp}` } } }));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ergraph serve</title>
${ICON_LINK}
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:860px;padding:8px 16px;color:#1a202c}code{background:#f1f5f9;padding:1px 4px;border-radius:3px}</style>
</head><body>
<h1>ergraph serve</h1>
<ul>
${rows}
<li><strong>MCP</strong> (Streamable HTTP): <code>POST ${escapeHtml(mcp)}</code> — in an MCP client's configuration: <code>${client}</code></li>
</ul>
<p>The same as JSON: <code>curl -H 'accept: application/json' ${escapeHtml(origin)}/</code></p>
</body></html>
`;
}

export function serveIndex(c: Context, apps: readonly IndexApp[], mcp: string): Response {
  const type = accepts(c, { header: 'Accept', supports: ['application/json', 'text/html'], default: 'application/json' });
  if (type === 'text/html') return c.html(indexHtml(apps, mcp, new URL(c.req.url).origin));
  return c.json({ apps, mcp });
}
