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

type Json = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';

/** Collects model classes as components, refusing two different classes under one name. */
class Components {
  readonly schemas: Record<string, Json> = {};
  private readonly owners = new Map<string, AnyModelClass>();

  add(kls: AnyModelClass): string {
    const owner = this.owners.get(kls.name);
    if (owner && owner !== kls) {
      throw new ConfigError(`two different model classes are named ${kls.name}; OpenAPI component names must be unique`);
    }
    if (!owner) {
      this.owners.set(kls.name, kls);
      const { $defs, ...root } = jsonSchema(kls) as Json & { $defs?: Record<string, Json> };
      this.schemas[kls.name] = relink(root);
      for (const [name, def] of Object.entries($defs ?? {})) this.schemas[name] ??= relink(def);
    }
    return COMPONENT + kls.name;
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
      },
    }) as Json & { $defs?: Record<string, Json> };
    // Schemas named with `.meta({ id })` come out as local $defs; lift them into components too.
    for (const [name, def] of Object.entries($defs ?? {})) this.schemas[name] ??= relink(def);
    return relink(rest);
  }
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

function operationObject(route: ServiceRoute, components: Components): Json {
  const { operation } = route;
  const returns = operation.returns();
  const json = (schema: Json) => ({ 'application/json': { schema } });
  return {
    tags: [route.tag],
    operationId: `${route.service.name}_${operation.name}`,
    summary: route.label,
    ...(operation.description ? { description: operation.description } : {}),
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
  for (const route of routes) paths[route.path] = { post: operationObject(route, components) };
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: config.name, version: config.version },
    tags,
    paths,
    components: { schemas: { ...components.schemas, ErrorResponse: errorSchema, ValidationErrorResponse: validationErrorSchema } },
  };
}
