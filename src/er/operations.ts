/**
 * Root operations: `@query` / `@mutation` on static methods, or `QueryConfig` / `MutationConfig`
 * attached to an `Entity` from outside. Both end up as the same `Operation` record, which the
 * GraphQL schema, the use-case router and MCP read.
 */
import type { LoaderInfo } from './relationship.js';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { isModelClass, type AnyModelClass } from './model.js';
import { ref } from './schema.js';

/** What a method returns: a zod schema, a model class, `[Model]`, or a thunk of any of those. */
export type Returns = z.ZodType | AnyModelClass | (() => AnyModelClass | readonly [AnyModelClass] | z.ZodType);

export interface OperationOptions<A extends z.ZodRawShape = z.ZodRawShape> {
  /** Arguments as a zod raw shape; the method receives them parsed as one object. */
  args?: A;
  returns: Returns;
  description?: string;
  /** Field name inside the entity group (defaults to the method name). */
  name?: string;
  /**
   * Marks the method deprecated: `@deprecated(reason:)` in the schema and introspection, flagged
   * in MCP's lists and the use-case OpenAPI, and counted by `countDeprecatedUse` (`ergraph/compat`).
   */
  deprecationReason?: string;
}

export type OperationKind = 'query' | 'mutation';

/**
 * A query or mutation method: the parsed args, the request context, and the run's `signal`
 * (aborts when the client goes away or the budget is spent) with the context again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OperationMethod = (args: any, context?: any, info?: LoaderInfo) => unknown;

export interface Operation {
  kind: OperationKind;
  /** The name clients use: the `name` option or the method name, verbatim. */
  name: string;
  methodName: string;
  description?: string;
  deprecationReason?: string;
  args: z.ZodRawShape;
  /** The return type as a zod schema (model classes become `ref`s); resolved lazily. */
  returns: () => z.ZodType;
  /** Called with `this` = the owning class, the parsed args, and the request context. */
  fn: OperationMethod;
}

const operations = new WeakMap<OperationMethod, Omit<Operation, 'fn'>>();

/** `where` (e.g. `@query getAll`) names the method in the error: the thunk may first run long after decoration. */
export function returnSchema(returns: Returns, where: string): () => z.ZodType {
  let cached: z.ZodType | undefined;
  const normalize = (value: unknown): z.ZodType => {
    if (value instanceof z.ZodType) return value;
    if (isModelClass(value)) return ref(() => value);
    if (Array.isArray(value) && value.length === 1 && isModelClass(value[0])) {
      const item = value[0];
      return z.array(ref(() => item));
    }
    throw new ConfigError(`${where}: returns must be a zod schema, a model class or [ModelClass], got ${String(value)}`);
  };
  return () => {
    if (!cached) {
      const value = returns instanceof z.ZodType || isModelClass(returns) ? returns : (returns as () => unknown)();
      cached = normalize(value);
    }
    return cached;
  };
}

function deprecationOption(options: OperationOptions, where: string): string | undefined {
  const reason = options.deprecationReason;
  if (reason === undefined) return undefined;
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new ConfigError(`${where}: deprecationReason must be a non-empty string (what to use instead)`);
  }
  return reason;
}

function record(kind: OperationKind, options: OperationOptions, methodName: string, fn: OperationMethod) {
  if (typeof fn !== 'function') throw new ConfigError(`@${kind} must decorate a method, not ${methodName}`);
  operations.set(fn, {
    kind,
    name: options.name ?? methodName,
    methodName,
    description: options.description,
    deprecationReason: deprecationOption(options, `@${kind} ${methodName}`),
    args: options.args ?? {},
    returns: returnSchema(options.returns, `@${kind} ${methodName}`),
  });
}

export interface OperationDecorator<A extends z.ZodRawShape> {
  // TC39 standard decorators
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  <F extends (this: any, args: z.output<z.ZodObject<A>>, context?: never) => unknown>(
    value: F,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    context: ClassMethodDecoratorContext<any, any>,
  ): void;
  // experimentalDecorators
  (target: object, key: string | symbol, descriptor: PropertyDescriptor): void;
}

function decorator<A extends z.ZodRawShape>(kind: OperationKind, options: OperationOptions<A>): OperationDecorator<A> {
  return ((target: unknown, context: unknown, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      // experimentalDecorators: (class, key, descriptor); static methods get the class itself.
      if (typeof target !== 'function') {
        throw new ConfigError(`@${kind} goes on a static method: ${String(context)} is an instance method`);
      }
      record(kind, options, String(context), descriptor.value);
      return;
    }
    const ctx = context as ClassMethodDecoratorContext;
    if (!ctx || ctx.kind !== 'method' || !ctx.static) {
      throw new ConfigError(`@${kind} goes on a static method: ${String(ctx?.name)} is not one`);
    }
    record(kind, options, String(ctx.name), target as OperationMethod);
  }) as OperationDecorator<A>;
}

/** Declare a static method as a root query of its entity (or use-case service). */
export function query<A extends z.ZodRawShape = {}>(options: OperationOptions<A>): OperationDecorator<A> {
  return decorator('query', options);
}

/** Declare a static method as a root mutation of its entity (or use-case service). */
export function mutation<A extends z.ZodRawShape = {}>(options: OperationOptions<A>): OperationDecorator<A> {
  return decorator('mutation', options);
}

interface ConfigOptions extends OperationOptions {
  method: OperationMethod;
}

abstract class OperationConfig {
  readonly operation: Operation;
  protected constructor(kind: OperationKind, options: ConfigOptions) {
    const methodName = options.name ?? options.method.name;
    if (!methodName) throw new ConfigError(`${kind} config needs a name for an anonymous method`);
    this.operation = {
      kind,
      name: methodName,
      methodName,
      description: options.description,
      deprecationReason: deprecationOption(options, `${kind} ${methodName}`),
      args: options.args ?? {},
      returns: returnSchema(options.returns, `${kind} ${methodName}`),
      fn: options.method,
    };
  }
}

/** An external root query attached to an `Entity`. */
export class QueryConfig extends OperationConfig {
  constructor(options: ConfigOptions) {
    super('query', options);
  }
}

/** An external root mutation attached to an `Entity`. */
export class MutationConfig extends OperationConfig {
  constructor(options: ConfigOptions) {
    super('mutation', options);
  }
}

/** The decorated static methods of a class (inherited ones included), in declaration order. */
export function decoratedOperations(kls: Function): Operation[] {
  const found = new Map<string, Operation>();
  for (let c: unknown = kls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const key of Object.getOwnPropertyNames(c)) {
      if (found.has(key)) continue;
      const value = Object.getOwnPropertyDescriptor(c, key)?.value;
      const meta = typeof value === 'function' ? operations.get(value) : undefined;
      if (meta) found.set(key, { ...meta, fn: value });
    }
  }
  return [...found.values()];
}

/** The declared return type of a decorated method, as a zod schema. */
export function getReturnType(method: Function): z.ZodType {
  const meta = operations.get(method as OperationMethod);
  if (!meta) throw new ConfigError(`${method.name || 'method'} is not decorated with @query or @mutation`);
  return meta.returns();
}
