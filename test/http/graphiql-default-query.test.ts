import { runInNewContext } from 'node:vm';
import { buildSchema, parse, validate } from 'graphql';
import { sampleQuery } from '../../src/graphql/sample-query.js';
import { describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { diagram } from '../graphql/domain.js';

const handler = new GraphQLHandler(diagram);

async function page(options: Parameters<typeof graphqlApp>[1]): Promise<string> {
  const res = await graphqlApp(handler, options).request('/graphql', { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The props the page's inline script hands to GraphiQL, found by running it against stand-ins. */
function graphiqlProps(html: string): Record<string, unknown> {
  // The inline script is the only one without a src; it must end at its own closing tag.
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  expect(scripts).toHaveLength(1);
  let props: Record<string, unknown> = {};
  runInNewContext(scripts[0]!, {
    URL,
    window: { location: { href: 'http://localhost/graphql' } },
    document: { getElementById: () => ({}) },
    GraphiQL: Object.assign(function GraphiQL() {}, { createFetcher: () => 'fetcher' }),
    GraphiQLPluginExplorer: { explorerPlugin: () => 'explorer' },
    React: { createElement: (_type: unknown, p: Record<string, unknown>) => (props = p) },
    ReactDOM: { createRoot: () => ({ render: () => {} }) },
  });
  return props;
}

describe('GraphiQL defaultQuery', () => {
  it('passes the query to GraphiQL unchanged', async () => {
    const query = '# start here\n{ User { whoami } }\n';
    const props = graphiqlProps(await page({ defaultQuery: query }));
    expect(props.defaultQuery).toBe(query);
    expect(props.fetcher).toBe('fetcher');
  });

  it('opens on a query of the served schema when none is given, which runs as it stands', async () => {
    const query = graphiqlProps(await page({})).defaultQuery as string;
    expect(query).toMatch(/^# A query of this schema: press the run button/);
    expect(validate(handler.schema, parse(query))).toEqual([]);
    const result = await handler.execute(query);
    expect(result.errors ?? []).toEqual([]);
    expect(Object.keys(result.data as object)).toHaveLength(1);
    expect(sampleQuery(buildSchema('type Query { me(token: String!): String }'))).toBeUndefined();
    expect(sampleQuery(buildSchema('type Query { a: A } type A { b(limit: Int): [B] } type B { id: ID name: String }'))).toContain('a {\n    b(limit: 3) {\n      id\n      name');
  });

  it('cannot break out of the script with </script>, comments, quotes or line separators', async () => {
    const hostile = '{ a } # </script><script>alert(1)</script> <!-- "\' ` ${x} \\ \u2028\u2029 </SCRIPT >';
    const html = await page({ defaultQuery: hostile });
    // 4 asset scripts and the inline one: nothing the query held closed or opened a script.
    expect(html.match(/<\/script/gi)).toHaveLength(5);
    expect(html).not.toContain('alert(1)</script>');
    expect(html).not.toContain('<!--');
    expect(graphiqlProps(html).defaultQuery).toBe(hostile);
  });

  it('is also an option of getGraphiqlHtml', () => {
    expect(graphiqlProps(handler.getGraphiqlHtml({ defaultQuery: '{ x }' })).defaultQuery).toBe('{ x }');
  });
});
