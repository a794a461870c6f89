/**
 * The API docs page: Swagger UI served from the installed `swagger-ui-dist` package by the app
 * itself, so it works offline and behind any mount prefix (every URL in the page is relative).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

let distDir: string | undefined;
const assetPath = (file: string) => {
  distDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return join(distDir, file);
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function docsHtml(title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)} — API docs</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/swagger-ui-standalone-preset.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;
}

// Kept out of the HTML so a strict Content-Security-Policy (no inline scripts) still works.
const INIT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/** `GET /docs` and its assets under `/docs/`. */
export function docsRoutes(title: string): Hono {
  const app = new Hono();
  const html = docsHtml(title);
  const cache = new Map<string, Uint8Array>();
  app.get('/docs', (c) => c.html(html));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.get('/docs/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    let bytes = cache.get(file);
    if (!bytes) {
      bytes = new Uint8Array(await readFile(assetPath(file)));
      cache.set(file, bytes);
    }
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  return app;
}
