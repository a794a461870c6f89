/**
 * The OpenAPI 3.1 document of a use-case app, built from the same route records the router serves.
 * Zod schemas become JSON Schema through `z.toJSONSchema`; model classes referenced with `ref`
 * become `components.schemas` entries holding their serialized form (`jsonSchema(kls)`).
 */
import { z } from 'zod';
import { BIGINT_JSON_SCHEMA, jsonSchema, type AnyModelClass } from '../er/model.js';
import { refTarget } from '../er/schema.js';
import { isBigIntSchema } from './bigint.js';
import { ConfigError } from '../er/errors.js';
import type { ServiceRoute, UseCaseAppConfig } from './service.js';
import { className } from '../er/names.js';
import { contextHeaders, type HeaderSource } from './context.js';

type Json = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';

/** Collects model classes as components, refusing two different classes under one name. */
class Components {
  readonly schemas: Record<string, Json> = {};
  private readonly owners = new Map<string, AnyModelClass>();

  add(kls: AnyModelClass): string {
    const owner = this.owners.get(className(kls));
    if (owner && owner !== kls) {
      throw new ConfigError(`two different model classes are named ${className(kls)}; OpenAPI component names must be unique`);
    }
    if (!owner) {
      this.owners.set(className(kls), kls);
      this.schemas[className(kls)] = this.lift(jsonSchema(kls));
    }
    return COMPONENT + className(kls);
  }

  /** JSON Schema of a zod schema for the given direction, with model refs pointing at components. */
  schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
    const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      override: (ctx) => {
        const target = refTarget(ctx.zodSchema as unknown as z.ZodType);
        if (target) ctx.jsonSchema.$ref = this.add(target());
        // Unrepresentable in JSON Schema (it would come out as `{}`); on the wire it is a decimal string.
        if (isBigIntSchema(ctx.zodSchema as unknown as z.ZodType)) Object.assign(ctx.jsonSchema, BIGINT_JSON_SCHEMA);
        markDeprecated(ctx.jsonSchema);
      },
    }) as Json & { $defs?: Record<string, Json> };
    return this.lift({ ...rest, ...($defs ? { $defs } : {}) });
  }

  /**
   * Move every `$defs` entry, at any depth (a model's field schemas carry their own, e.g. an enum
   * named with `.meta({ id })`), into components, and point `#/$defs/X` references at them: a
   * `$ref` must resolve from the document root, where nested `$defs` are not.
   */
  private lift(schema: Json): Json {
    const walk = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(walk);
      if (!value || typeof value !== 'object') return value;
      const out: Json = {};
      for (const [key, child] of Object.entries(value)) {
        if (key === '$defs') {
          for (const [name, def] of Object.entries(child as Record<string, Json>)) {
            if (!(name in this.schemas)) {
              this.schemas[name] = {}; // placeholder first: definitions may refer to each other
              this.schemas[name] = relink(walk(def) as Json);
            }
          }
        } else out[key] = walk(child);
      }
      return withExample(out);
    };
    return relink(walk(schema) as Json);
  }
}

/**
 * `z.int()` is bounded by JavaScript's safe integers, and Swagger UI fills a request with a
 * schema's `minimum` when nothing else is given: every id read `-9007199254740991`. An integer
 * with no lower bound of its own (nor a default or example) gets the example 1, or its maximum
 * when that is lower; the bounds stay, since the route refuses what lies outside them.
 */
function withExample(json: Json): Json {
  if (json.type !== 'integer' || json.minimum !== Number.MIN_SAFE_INTEGER) return json;
  if ('default' in json || 'examples' in json || 'example' in json) return json;
  const max = typeof json.maximum === 'number' ? json.maximum : 1;
  return { ...json, examples: [Math.min(1, max)] };
}

/**
 * zod copies all metadata into JSON Schema; `deprecationReason` (ergraph's key for the GraphQL
 * reason) is no JSON Schema keyword, so it becomes the standard `deprecated: true`.
 */
function markDeprecated(json: Json): void {
  if (!('deprecationReason' in json)) return;
  delete json.deprecationReason;
  json.deprecated = true;
}

/** Rewrite local `#/$defs/X` references to component references. */
function relink<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"${COMPONENT}`)) as T;
}

const errorSchema: Json = {
  type: 'object',
  properties: { error: { type: 'string' }, message: { type: 'string' } },
  required: ['error', 'message'],
};

const validationErrorSchema: Json = {
  type: 'object',
  properties: {
    error: { const: 'validation_error' },
    message: { type: 'string' },
    issues: { type: 'array', items: { type: 'object' } },
  },
  required: ['error', 'issues'],
};

/** The router answers `null` for a null/undefined result whatever was declared, so the document says so. */
function nullable(json: Json, schema: z.ZodType): Json {
  return schema.safeParse(null).success ? json : { anyOf: [json, { type: 'null' }] };
}

/** Header parameters for the route's `FromContext` arguments that the context extractor reads from headers. */
function headerParameters(route: ServiceRoute, headers: ReadonlyMap<string, HeaderSource>, components: Components): Json[] {
  const out: Json[] = [];
  for (const [key, schema] of Object.entries(route.fromContext.shape)) {
    const source = headers.get(key);
    if (!source) continue;
    out.push({
      name: source.header,
      in: 'header',
      required: !(schema as z.ZodType).safeParse(undefined).success,
      description: source.description ?? `${key} of the request context`,
      schema: components.schemaOf(schema as z.ZodType, 'input'),
    });
  }
  return out;
}

function operationObject(route: ServiceRoute, components: Components, headers: ReadonlyMap<string, HeaderSource>): Json {
  const { operation } = route;
  const parameters = headerParameters(route, headers, components);
  const returns = operation.returns();
  const json = (schema: Json) => ({ 'application/json': { schema } });
  return {
    tags: [route.tag],
    operationId: `${className(route.service, 'use-case service')}_${operation.name}`,
    summary: route.label,
    ...(operation.description || operation.deprecationReason
      ? { description: [operation.description, operation.deprecationReason && `Deprecated: ${operation.deprecationReason}`].filter(Boolean).join('\n\n') }
      : {}),
    ...(operation.deprecationReason ? { deprecated: true } : {}),
    ...(parameters.length ? { parameters } : {}),
    requestBody: { required: true, content: json(components.schemaOf(route.body, 'input')) },
    responses: {
      '200': { description: `What ${route.label} returns`, content: json(nullable(components.schemaOf(returns, 'output'), returns)) },
      '400': { description: 'The body is not JSON or does not match the arguments', content: json({ $ref: `${COMPONENT}ValidationErrorResponse` }) },
      '500': { description: 'The method failed', content: json({ $ref: `${COMPONENT}ErrorResponse` }) },
    },
  };
}

export function buildOpenApi(config: UseCaseAppConfig, routes: readonly ServiceRoute[]): Json {
  const components = new Components();
  const paths: Record<string, Json> = {};
  const headers = contextHeaders(config.contextExtractor);
  for (const route of routes) paths[route.path] = { post: operationObject(route, components, headers) };
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: config.name, version: config.version },
    tags,
    paths,
    components: { schemas: { ...components.schemas, ErrorResponse: errorSchema, ValidationErrorResponse: validationErrorSchema } },
  };
}
