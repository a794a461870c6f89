/**
 * Use-case services: plain classes whose `@query` / `@mutation` static methods become HTTP routes.
 * This module turns a `UseCaseAppConfig` into route records; the router and the OpenAPI builder
 * both read those records, so a route and its documentation cannot drift apart.
 */
import type { Context as HonoContext } from 'hono';
import { z } from 'zod';
import { ConfigError } from '../er/errors.js';
import { decoratedOperations, type Operation } from '../er/operations.js';
import { Annotated, describeField, type Marker } from '../er/schema.js';
import { className, classLabel } from '../er/names.js';

/** Base class of use-case services; the class name is the OpenAPI tag and the route segment. */
export class UseCaseService {
  static getTagName(this: Function): string {
    return className(this, 'use-case service');
  }
}

/** A service class: anything extending `UseCaseService`. */
export type UseCaseServiceClass = typeof UseCaseService;

/** The request context handed to service methods (second parameter) and to `FromContext` args. */
export type RequestContext = Record<string, unknown>;

export type ContextExtractor = (request: Request, c: HonoContext) => RequestContext | Promise<RequestContext>;

export interface UseCaseAppOptions {
  /** The API title in the OpenAPI document. */
  name: string;
  services: readonly UseCaseServiceClass[];
  /** Builds the context from the incoming request (e.g. a decoded credential). Defaults to `{}`. */
  contextExtractor?: ContextExtractor;
  /** API version in the OpenAPI document. */
  version?: string;
  /** Called with errors a service method threw that carry no HTTP status. Defaults to `console.error`. */
  onError?: (error: unknown, route: ServiceRoute) => void;
}

export class UseCaseAppConfig {
  readonly name: string;
  readonly services: readonly UseCaseServiceClass[];
  readonly contextExtractor: ContextExtractor;
  readonly version: string;
  readonly onError: (error: unknown, route: ServiceRoute) => void;

  constructor(options: UseCaseAppOptions) {
    this.name = options.name;
    this.services = options.services;
    this.contextExtractor = options.contextExtractor ?? (() => ({}));
    this.version = options.version ?? '1.0.0';
    this.onError = options.onError ?? ((error, route) => console.error(`${route.label} failed:`, error));
  }
}

const FROM_CONTEXT: Marker = { kind: 'fromContext' };

/**
 * Mark an argument as coming from `contextExtractor(request)` under the same key, never from the
 * request body. It is left out of the OpenAPI request schema. The schema is cloned first so
 * marking a shared schema instance does not mark its other uses.
 */
export function FromContext<S extends z.ZodType>(schema: S): S {
  return Annotated(schema.clone() as S, FROM_CONTEXT);
}

// Markers sit on the inner schema, so `FromContext(x).optional()` is found through the wrappers.
export const isFromContext = (schema: z.ZodType) => describeField(schema).markers.includes(FROM_CONTEXT);

/** `TaskService` → `task_service`: an underscore before every capital but the first, all lower-cased. */
export function snakeCase(name: string): string {
  return name.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
}

export interface ServiceRoute {
  service: UseCaseServiceClass;
  operation: Operation;
  path: string;
  tag: string;
  /** `TaskService.listTasks`, used in messages and as the OpenAPI operationId. */
  label: string;
  /** Arguments read from the JSON body. */
  body: z.ZodObject;
  /** Arguments read from the request context. */
  fromContext: z.ZodObject;
}

export function serviceRoutes(config: UseCaseAppConfig): ServiceRoute[] {
  const routes: ServiceRoute[] = [];
  const seen = new Map<string, string>();
  for (const service of config.services) {
    if (!(typeof service === 'function' && service.prototype instanceof UseCaseService)) {
      throw new ConfigError(`${typeof service === 'function' ? classLabel(service) : String(service)} in "${config.name}" does not extend UseCaseService`);
    }
    const operations = decoratedOperations(service);
    if (operations.length === 0) {
      throw new ConfigError(`${classLabel(service)} declares no @query or @mutation method, so it would expose no route`);
    }
    const name = className(service, 'use-case service');
    for (const operation of operations) {
      const path = `/api/${snakeCase(name)}/${operation.name}`;
      const label = `${name}.${operation.name}`;
      const previous = seen.get(path);
      if (previous) throw new ConfigError(`${label} and ${previous} both map to POST ${path}`);
      seen.set(path, label);
      const bodyShape: Record<string, z.ZodType> = {};
      const contextShape: Record<string, z.ZodType> = {};
      for (const [key, schema] of Object.entries(operation.args)) {
        (isFromContext(schema as z.ZodType) ? contextShape : bodyShape)[key] = schema as z.ZodType;
      }
      routes.push({
        service,
        operation,
        path,
        tag: service.getTagName(),
        label,
        body: z.object(bodyShape),
        fromContext: z.object(contextShape),
      });
    }
  }
  return routes;
}
