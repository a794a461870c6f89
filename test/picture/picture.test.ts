/** The ER picture's JSON model and its Mermaid, DOT and SVG renderers (issue 16.1). */
import { describe, expect, it } from 'vitest';
import { erDot, erMermaid, erPicture, erSvg, formatErPicture } from 'ergraph';
import { diagram, OrderService, services } from './shop.js';
import { reachable } from '../support/imports.js';

const picture = erPicture(diagram, { services });

describe('erPicture: the JSON model', () => {
  it('has every entity with its fields (GraphQL notation) and root operations', () => {
    expect(picture.format).toBe('ergraph-er/1');
    expect(picture.entities).toEqual([
      {
        name: 'Customer',
        fields: [
          { name: 'id', type: 'Int!' },
          { name: 'name', type: 'String!' },
          { name: 'referrerId', type: 'Int' },
          { name: 'tags', type: '[String!]!' },
        ],
        queries: [{ name: 'list', kind: 'query', returns: '[Customer!]!', description: 'Customers by name' }],
        mutations: [],
      },
      {
        name: 'Order',
        fields: [
          { name: 'id', type: 'Int!' },
          { name: 'customerId', type: 'Int!' },
          { name: 'total', type: 'Float!' },
          { name: 'status', type: 'OrderStatus!' },
        ],
        queries: [],
        mutations: [{ name: 'pay', kind: 'mutation', returns: 'Order!' }],
      },
    ]);
  });

  it('has every relationship with its fk and cardinality, a self reference included', () => {
    expect(picture.relationships).toEqual([
      { from: 'Customer', name: 'orders', fk: 'id', to: 'Order', cardinality: '1:N' },
      { from: 'Customer', name: 'referrer', fk: 'referrerId', to: 'Customer', cardinality: 'N:1' },
      { from: 'Order', name: 'customer', fk: 'customerId', to: 'Customer', cardinality: 'N:1' },
    ]);
  });

  it('has the federation members the graph reaches, with the remote relationships into them', () => {
    expect(picture.members).toEqual([
      {
        name: 'reviews',
        entities: ['Review'],
        relationships: [{ from: 'Customer', name: 'reviews', fk: 'id', to: 'Review', cardinality: '1:N', joinKey: 'customerId', paginated: true }],
      },
    ]);
  });

  it('has the use-case services, and which entity each operation reads through its DTO', () => {
    expect(picture.services).toEqual([
      {
        name: 'OrderService',
        operations: [
          { name: 'openOrders', kind: 'query', returns: '[OrderSummary!]!', description: 'Open orders', reads: ['Order'] },
          { name: 'count', kind: 'query', returns: 'Int!', reads: [] },
        ],
      },
    ]);
    // the classes alone work as well as a UseCaseAppConfig
    expect(erPicture(diagram, { services: [OrderService] }).services).toEqual(picture.services);
    expect(erPicture(diagram).services).toEqual([]);
  });

  it('is plain JSON: what --format json prints parses back to the model', () => {
    expect(JSON.parse(formatErPicture(picture, 'json'))).toEqual(picture);
  });
});

describe('renderers', () => {
  it('Mermaid: an erDiagram with attributes, fk markers, crow-foot edges, members and services', () => {
    const text = erMermaid(picture);
    expect(text.split('\n')[0]).toBe('erDiagram');
    expect(text).toContain('  Customer {\n    Int id "Int!"\n    String name "String!"\n    Int referrerId FK "Int"\n    String[] tags "[String!]!"\n    query list "returns [Customer!]!"\n  }');
    expect(text).toContain('  Customer ||--o{ Order : "orders (fk id) 1:N"');
    expect(text).toContain('  Customer }o--|| Customer : "referrer (fk referrerId) N:1"');
    expect(text).toContain('  Order }o--|| Customer : "customer (fk customerId) N:1"');
    expect(text).toContain('  reviews__Review {\n    service reviews\n  }');
    expect(text).toContain('  Customer ||..o{ reviews__Review : "reviews (fk id = customerId) 1:N"');
    expect(text).toContain('  OrderService }o..o{ Order : "reads"');
    expect(text).toBe(formatErPicture(picture, 'mermaid'));
  });

  it('DOT: HTML-table nodes, labelled edges, a dashed cluster per member', () => {
    const text = erDot(picture);
    expect(text.startsWith('digraph er {')).toBe(true);
    expect(text.trimEnd().endsWith('}')).toBe(true);
    expect(text).toContain('"Customer" -> "Order" [label="orders (fk id) 1:N"];');
    expect(text).toContain('"Customer" -> "Customer" [label="referrer (fk referrerId) N:1"];');
    expect(text).toContain('subgraph "cluster_reviews" {');
    expect(text).toContain('"Customer" -> "reviews.Review" [style=dashed, label="reviews (fk id = customerId) 1:N"];');
    expect(text).toContain('"OrderService" -> "Order" [style=dotted, label="reads"];');
    expect(text).toContain('<TD ALIGN="LEFT">tags: [String!]!</TD>');
    // braces balance: the output is one graph
    expect(text.split('{').length).toBe(text.split('}').length);
  });

  it('SVG: one box per entity, member entity and service, one edge per relationship, docs links, same bytes every time', () => {
    const svg = erSvg(picture, { docsUrl: (name) => `/graphql?docs=${name}` });
    expect(svg).toBe(erSvg(picture, { docsUrl: (name) => `/graphql?docs=${name}` }));
    expect([...svg.matchAll(/<g class="er-entity" data-entity="([^"]+)"/g)].map((m) => m[1])).toEqual(['Customer', 'Order']);
    expect([...svg.matchAll(/<g class="er-member" data-member="([^"]+)"/g)].map((m) => m[1])).toEqual(['reviews.Review']);
    expect([...svg.matchAll(/<g class="er-service" data-service="([^"]+)"/g)].map((m) => m[1])).toEqual(['OrderService']);
    expect([...svg.matchAll(/<a class="er-docs-link" href="([^"]+)"/g)].map((m) => m[1])).toEqual(['/graphql?docs=Customer', '/graphql?docs=Order']);
    const edges = [...svg.matchAll(/class="er-edge er-edge-(\w+)" data-from="([^"]+)" data-to="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}->${m[3]}`);
    expect(edges).toEqual([
      'relationship Customer->Order',
      'relationship Customer->Customer',
      'relationship Order->Customer',
      'remote Customer->reviews.Review',
      'reads OrderService->Order',
    ]);
    expect(svg).toContain('>referrer (fk referrerId) N:1</text>');
    expect(erSvg(picture)).not.toContain('<a '); // no docs URL, no links
  });

  it('SVG escapes what it writes', () => {
    const svg = erSvg({ ...picture, entities: [{ name: 'A<b>', fields: [{ name: 'x&y', type: 'Int!' }], queries: [], mutations: [] }], relationships: [], members: [], services: [] });
    expect(svg).toContain('data-entity="A&lt;b&gt;"');
    expect(svg).toContain('>x&amp;y: Int!</text>');
    expect(svg).not.toContain('A<b>');
  });
});

describe('layering', () => {
  it('the picture reads federation edges and use-case services without importing either (nor any surface)', () => {
    const files = [...reachable('src/picture/index.ts')];
    expect(files).toContain('src/er/edges.ts'); // the walk does follow imports
    expect(files.filter((f) => /^src\/(federation|usecase|http|mcp|cli)\/|^compat\//.test(f))).toEqual([]);
    expect([...reachable('src/er/diagram.ts')].filter((f) => !f.startsWith('src/er/'))).toEqual([]);
  });
});
