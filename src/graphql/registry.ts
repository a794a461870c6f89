/**
 * The named types of one schema build. GraphQL names are global, so every type is claimed
 * here with a description of what it stands for; a second claimant is a `ConfigError` that
 * names both. Caches keep one type object per model class, zod enum and input shape.
 */
import type { GraphQLEnumType, GraphQLFieldConfigMap, GraphQLInputObjectType, GraphQLNamedType, GraphQLObjectType } from 'graphql';
import type { z } from 'zod';
import type { EntityInfo, ErDiagram } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import type { AnyModelClass } from '../er/model.js';
import type { Run } from './run.js';

export interface SchemaOptions {
  /** One-to-many relationship fields take `limit` / `offset` and return `<Entity>Result!`. */
  enablePagination?: boolean;
}

/**
 * Extra fields for the object type of a model class (an entity when `entity` is set). The
 * relationship fields are one such contribution; federation adds remote fields the same way.
 */
export type ObjectFieldsContribution = (
  kls: AnyModelClass,
  entity: EntityInfo | undefined,
  types: TypeRegistry,
) => GraphQLFieldConfigMap<unknown, Run> | undefined;

export class TypeRegistry {
  private readonly owners = new Map<string, string>();
  readonly objects = new Map<AnyModelClass, GraphQLObjectType>();
  readonly inputs = new Map<object, GraphQLInputObjectType>();
  readonly enums = new Map<string, { schema: z.ZodType; type: GraphQLEnumType }>();
  readonly shared = new Map<string, GraphQLNamedType>();
  /** Names of the paginated wrapper types: not a level of their own when counting depth. */
  readonly resultTypes = new Set<string>();

  constructor(
    readonly diagram: ErDiagram,
    readonly options: Readonly<Required<SchemaOptions>>,
    readonly objectFields: readonly ObjectFieldsContribution[] = [],
  ) {}

  /** Reserve a type name for `owner`; the same owner may claim it again. */
  claim(name: string, owner: string): void {
    const previous = this.owners.get(name);
    if (previous !== undefined && previous !== owner) {
      throw new ConfigError(`GraphQL type name ${name} is used twice: by ${previous} and by ${owner}`);
    }
    this.owners.set(name, owner);
  }

  /** A type built once per schema under a fixed name (`Pagination`, `UserResult`, ...). */
  once<T extends GraphQLNamedType>(name: string, owner: string, make: () => T): T {
    const existing = this.shared.get(name);
    if (existing) return existing as T;
    this.claim(name, owner);
    const type = make();
    this.shared.set(name, type);
    return type;
  }
}
