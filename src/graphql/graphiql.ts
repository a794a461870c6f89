/**
 * The GraphiQL page (spec 4.1: an IDE with schema explorer and query history). It loads React,
 * GraphiQL and the explorer plugin from asset URLs the HTTP layer serves from files shipped in
 * the package (`src/http/assets.ts`), so it works offline; GraphiQL 3 keeps its history plugin built in.
 *
 * GraphiQL saves tabs, queries, variables and headers in localStorage under fixed keys, one set per
 * origin: the v5 page of a server would open on the v6 page's query, which v5 cannot run. Each page
 * therefore hands GraphiQL a storage of its own, namespaced by schema, app and endpoint path.
 */
import { escapeHtml, ICON_LINK } from './page.js';

export interface GraphiqlOptions {
  /** Where the page sends queries. */
  endpoint?: string;
  /** Base URL of the assets (see `GRAPHIQL_ASSETS`); defaults to `<endpoint>/assets`. */
  assetsPath?: string;
  title?: string;
  /**
   * The query the editor opens with when the browser has none stored, instead of GraphiQL's
   * generic welcome comment: give newcomers something they can run right away.
   */
  defaultQuery?: string;
  /** Which schema the endpoint serves, shown on the page and part of its saved state's namespace (default `v6`). */
  schema?: GraphiqlSchema;
  /** The app's name (`ergraph serve`'s app, the handler's `serviceName`), shown beside the schema. */
  app?: string;
}

export type GraphiqlSchema = 'v6' | 'v5';

const SCHEMA_LABELS: Record<GraphiqlSchema, string> = { v6: 'v6 grouped schema', v5: 'v5 compat schema (deprecated)' };

/** What the page shows in GraphiQL's corner: the app and the schema the editor is on. */
export const graphiqlLabel = (options: Pick<GraphiqlOptions, 'schema' | 'app'>): string =>
  [options.app, SCHEMA_LABELS[options.schema ?? 'v6']].filter(Boolean).join(' · ');

/** Asset file name → the package it is built from (a devDependency), the file inside it, its type. */
export const GRAPHIQL_ASSETS: Readonly<Record<string, { pkg: string; file: string; type: string }>> = {
  'react.production.min.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'text/javascript' },
  'react-dom.production.min.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript' },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript' },
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css' },
  'plugin-explorer.umd.js': { pkg: '@graphiql/plugin-explorer', file: 'dist/index.umd.js', type: 'text/javascript' },
  'plugin-explorer.css': { pkg: '@graphiql/plugin-explorer', file: 'dist/style.css', type: 'text/css' },
};

/**
 * Safe inside a <script>: JSON with `<` escaped so a value cannot close the tag (`</script>`)
 * or open a comment (`<!--`), and U+2028/U+2029 escaped for older engines that end a string
 * literal at them. The result is still a JSON literal of the same value.
 */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export function graphiqlHtml(options: GraphiqlOptions = {}): string {
  const endpoint = options.endpoint ?? '/graphql';
  const assets = (options.assetsPath ?? `${endpoint.replace(/\/$/, '')}/assets`).replace(/\/$/, '');
  const label = graphiqlLabel(options);
  const title = escapeHtml(options.title ?? `ergraph GraphiQL — ${label}`);
  const url = (name: keyof typeof GRAPHIQL_ASSETS) => escapeHtml(`${assets}/${name}`);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    ${ICON_LINK}
    <style>body { margin: 0; height: 100vh; overflow: hidden; } #graphiql { height: 100vh; }</style>
    <link rel="stylesheet" href="${url('graphiql.min.css')}" />
    <link rel="stylesheet" href="${url('plugin-explorer.css')}" />
    <script src="${url('react.production.min.js')}"></script>
    <script src="${url('react-dom.production.min.js')}"></script>
    <script src="${url('graphiql.min.js')}"></script>
    <script src="${url('plugin-explorer.umd.js')}"></script>
  </head>
  <body>
    <div id="graphiql">Loading GraphiQL…</div>
    <script>
      const endpoint = new URL(${scriptJson(endpoint)}, window.location.href).toString();
      const fetcher = GraphiQL.createFetcher({ url: endpoint });
      const explorer = GraphiQLPluginExplorer.explorerPlugin();
      // This page's saved state apart from every other GraphiQL page of the origin (see above).
      // The theme stays shared: it is the user's, not the endpoint's.
      const namespace = ${scriptJson(`ergraph:${options.schema ?? 'v6'}:${options.app ?? ''}:`)} + new URL(endpoint).pathname + '|';
      const own = (key) => (key === 'graphiql:theme' ? key : namespace + key);
      const ownKeys = () => {
        const keys = [];
        for (let i = 0; i < localStorage.length; i++) {
          const key = localStorage.key(i);
          if (key !== null && key.startsWith(namespace)) keys.push(key);
        }
        return keys;
      };
      const storage = {
        getItem: (key) => localStorage.getItem(own(key)),
        setItem: (key, value) => localStorage.setItem(own(key), value),
        removeItem: (key) => localStorage.removeItem(own(key)),
        get length() { return ownKeys().length; },
        clear: () => ownKeys().forEach((key) => localStorage.removeItem(key)),
      };
      const props = { fetcher, storage, plugins: [explorer], defaultEditorToolsVisibility: true };
      const defaultQuery = ${scriptJson(options.defaultQuery ?? null)};
      if (defaultQuery !== null) props.defaultQuery = defaultQuery;
      // ?docs=<Type> opens the docs at that type (the ER page links entities here). GraphiQL has
      // no URL for it, so a child of its provider pushes the type once the schema is loaded.
      const docsType = new URL(window.location.href).searchParams.get('docs');
      const ui = GraphiQL.React;
      function OpenDocs() {
        const { schema } = ui.useSchemaContext({ nonNull: true });
        const explorer = ui.useExplorerContext();
        const opened = React.useRef(false);
        React.useEffect(() => {
          const type = schema && schema.getType(docsType);
          if (!type || !explorer || opened.current) return;
          opened.current = true;
          explorer.push({ name: type.name, def: type });
        }, [schema, explorer]);
        return null;
      }
      // Given at mount, the docs pane starts open (set later, GraphiQL keeps the pane collapsed).
      if (docsType) props.visiblePlugin = ui.DOC_EXPLORER_PLUGIN;
      // Which schema this editor is on, where GraphiQL shows its name.
      const logo = React.createElement(GraphiQL.Logo, null, ${scriptJson(`ergraph · ${label}`)});
      const footer = docsType ? React.createElement(GraphiQL.Footer, null, React.createElement(OpenDocs)) : null;
      ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, props, logo, footer));
    </script>
  </body>
</html>
`;
}
