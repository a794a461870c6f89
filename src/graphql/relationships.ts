/**
 * Relationship fields on entity types. Each load goes through the run's loader pool and waits
 * at its tree level (see levels.ts), so a relationship costs one loader call per level.
 */
import { GraphQLList, GraphQLNonNull, type GraphQLFieldConfig, type GraphQLFieldConfigMap } from 'graphql';
import type { EntityInfo, ResolvedRelationship } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import type { AnyModelClass } from '../er/model.js';
import { keyOf, MISSING } from './keys.js';
import { objectTypeFor } from './output.js';
import { pagedRelationshipField } from './pagination.js';
import type { TypeRegistry } from './registry.js';
import { levelOf, type Run } from './run.js';

/** Contribution: the relationship fields of an entity type. */
export function relationshipFields(
  kls: AnyModelClass,
  entity: EntityInfo | undefined,
  types: TypeRegistry,
): GraphQLFieldConfigMap<unknown, Run> | undefined {
  if (!entity || entity.kls !== kls) return undefined;
  const fields: GraphQLFieldConfigMap<unknown, Run> = {};
  for (const rel of entity.relationships.values()) {
    fields[rel.relationship.name] =
      rel.list && types.options.enablePagination ? pagedRelationshipField(types, rel) : plainRelationshipField(types, rel);
  }
  return fields;
}

function plainRelationshipField(types: TypeRegistry, rel: ResolvedRelationship): GraphQLFieldConfig<unknown, Run> {
  const r = rel.relationship;
  const target = objectTypeFor(types, rel.target);
  const loaderRef = r.loader;
  if (!loaderRef) {
    throw new ConfigError(
      `Relationship ${rel.owner.name}.${r.name} has only a pageLoader; give it a loader` +
        (rel.list ? ' or enable pagination' : ' (page loaders serve one-to-many relationships only)'),
    );
  }
  const empty = () => (r.hasNoneDefault ? r.noneDefault() : rel.list ? [] : null);
  const missing = rel.list ? Object.freeze([]) : null; // what the loader's null for a key means
  return {
    type: rel.list ? new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(target))) : target,
    description: r.description,
    resolve(parent, _args, run, info) {
      const key = keyOf(parent, r);
      if (key === MISSING) return empty();
      return run.levels.load(levelOf(run, info.path), run.pool.get(loaderRef), key, missing);
    },
  };
}
