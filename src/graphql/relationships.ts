/**
 * Relationship fields on entity types. Each load goes through the run's loader pool and is
 * batched with every other load of its tree level (the compiled executor loads level by level;
 * under graphql-js the loads wait at their level, see levels.ts), so a relationship costs one
 * loader call per level.
 */
import { GraphQLList, GraphQLNonNull, type GraphQLFieldConfig, type GraphQLFieldConfigMap, type GraphQLResolveInfo } from 'graphql';
import type { EntityInfo, ResolvedRelationship } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import type { AnyModelClass } from '../er/model.js';
import { keyOf, MISSING } from './keys.js';
import { nativeExtensions, type LoadSource } from './native.js';
import { objectTypeFor } from './output.js';
import { pagedRelationshipField } from './pagination.js';
import type { TypeRegistry } from './registry.js';
import { levelOf, type Run } from './run.js';
import { narrowLoads } from './narrow.js';

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
  const source = (run: Run, _args: unknown, _selection: unknown, info: GraphQLResolveInfo): LoadSource => ({
    loader: run.pool.get(loaderRef),
    missing,
    narrow: narrowLoads(run, rel, info),
  });
  return {
    type: rel.list ? new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(target))) : target,
    description: r.description,
    deprecationReason: r.deprecationReason,
    extensions: nativeExtensions({ kind: 'load', relationship: r, empty, source }),
    resolve(parent, _args, run, info) {
      const { loader, narrow } = source(run, undefined, undefined, info);
      const key = keyOf(parent, r);
      if (key === MISSING) return empty();
      return run.levels.load(levelOf(run, info.path), loader, key, missing, narrow);
    },
  };
}
