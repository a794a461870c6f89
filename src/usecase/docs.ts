/**
 * The API docs page: Swagger UI, whose files ship inside the package (`src/http/assets.ts`) and
 * are served by the app itself, so it works offline and behind any mount prefix (every URL in
 * the page is relative).
 */
import { Hono } from 'hono';
import { escapeHtml } from '../graphql/page.js';
import { pageAssetResponse } from '../http/assets.js';

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
  app.get('/docs', (c) => c.html(html));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.get('/docs/:file', async (c) => (await pageAssetResponse(c, 'swagger-ui', c.req.param('file'))) ?? c.notFound());
  return app;
}
