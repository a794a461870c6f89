/**
 * What the resolver does for one model class, worked out once per (diagram, class): which
 * fields load through relationships, which have `resolveX` / `postX` methods, which hold nested
 * models to descend into.
 */
import type { ErDiagram, EntityInfo, ResolvedRelationship } from '../er/diagram.js';
import { registeredFks } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import { modelFields, type AnyModelClass } from '../er/model.js';
import { findMarker, type FieldInfo, type Marker } from '../er/schema.js';
import { subsetOf, type AutoLoadMarker, type ExposeMap, type SendToMap } from './subset.js';
import { classLabel } from '../er/names.js';

export interface LoadStep {
  kind: 'load';
  field: string;
  info: FieldInfo;
  rel: ResolvedRelationship;
}

export interface MethodStep {
  kind: 'method';
  field: string;
  info: FieldInfo;
  method: (this: unknown) => unknown;
}

export interface ClassPlan {
  kls: AnyModelClass;
  steps: (LoadStep | MethodStep)[];
  posts: MethodStep[];
  /** Fields that can hold model instances to descend into. */
  nested: { key: string; info: FieldInfo }[];
  expose: [field: string, alias: string][];
  collect: [field: string, alias: string][];
  /** Nothing to do here nor below: the resolver need not visit instances of this class. */
  trivial: boolean;
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A field marker that loads the field itself (federation's `Paged`): it supplies the
 * `resolveX` method the class did not declare. The method runs like a declared one, so it can
 * use `Loader(...)` and batches per level.
 */
export interface LoadingMarker extends Marker {
  resolverMethod(target: {
    owner: AnyModelClass;
    source: AnyModelClass | undefined;
    field: string;
    info: FieldInfo;
    diagram: ErDiagram | undefined;
  }): MethodStep['method'];
}

const isLoadingMarker = (m: Marker): m is LoadingMarker => typeof (m as Partial<LoadingMarker>).resolverMethod === 'function';

/** The entity a class stands for: itself, or the source of its `__subset__` (followed through subsets of subsets). */
export function sourceEntity(kls: AnyModelClass, diagram: ErDiagram | undefined): EntityInfo | undefined {
  if (!diagram) return undefined;
  for (let current: AnyModelClass | undefined = kls, hops = 0; current && hops < 16; hops++) {
    const entity = diagram.entityOf(current);
    if (entity) return entity;
    current = subsetOf(current)?.kls;
  }
  return undefined;
}

const plans = new WeakMap<object, WeakMap<AnyModelClass, ClassPlan>>();
const NO_DIAGRAM = {};

export function planFor(kls: AnyModelClass, diagram: ErDiagram | undefined): ClassPlan {
  const key = diagram ?? NO_DIAGRAM;
  let byClass = plans.get(key);
  if (!byClass) plans.set(key, (byClass = new WeakMap()));
  let plan = byClass.get(kls);
  if (!plan) {
    plan = build(kls, diagram);
    byClass.set(kls, plan);
    plan.trivial = isTrivial(plan, diagram, new Set());
  }
  return plan;
}

function isTrivial(plan: ClassPlan, diagram: ErDiagram | undefined, seen: Set<AnyModelClass>): boolean {
  if (plan.steps.length || plan.posts.length || plan.expose.length || plan.collect.length) return false;
  if (seen.has(plan.kls)) return true; // a cycle of otherwise trivial classes does nothing
  seen.add(plan.kls);
  return plan.nested.every(({ info }) => {
    const child = info.model!();
    const existing = plans.get(diagram ?? NO_DIAGRAM)?.get(child);
    return existing && existing !== plan ? existing.trivial : isTrivial(buildOnce(child, diagram), diagram, seen);
  });
}

function buildOnce(kls: AnyModelClass, diagram: ErDiagram | undefined): ClassPlan {
  return plans.get(diagram ?? NO_DIAGRAM)?.get(kls) ?? build(kls, diagram);
}

function build(kls: AnyModelClass, diagram: ErDiagram | undefined): ClassPlan {
  const proto = kls.prototype as Record<string, unknown>;
  const fields = modelFields(kls);
  const fieldNames = new Set(fields.map((f) => f.key));
  const entity = sourceEntity(kls, diagram);
  const subset = subsetOf(kls);
  const plan: ClassPlan = {
    kls,
    steps: [],
    posts: [],
    nested: [],
    // A subset's `exposeAs` / `sendTo` first; the class's own statics add to (or override) them.
    expose: Object.entries({ ...subset?.exposeAs, ...(kls as { __expose__?: ExposeMap }).__expose__ }),
    collect: Object.entries({ ...subset?.sendTo, ...(kls as { __collect__?: SendToMap }).__collect__ }).flatMap(
      ([field, names]) => (typeof names === 'string' ? [names] : names).map((name): [string, string] => [field, name]),
    ),
    trivial: false,
  };

  for (const { key, info } of fields) {
    const resolve = proto[`resolve${upperFirst(key)}`];
    const post = proto[`post${upperFirst(key)}`];
    const marker = findMarker<AutoLoadMarker>(info, 'autoload');
    const loading = info.markers.find(isLoadingMarker);
    if (typeof resolve === 'function') {
      plan.steps.push({ kind: 'method', field: key, info, method: resolve as MethodStep['method'] });
    } else if (loading) {
      const method = loading.resolverMethod({ owner: kls, source: entity?.kls, field: key, info, diagram });
      plan.steps.push({ kind: 'method', field: key, info, method });
    } else if (marker || (entity && entity.kls !== kls && entity.relationships.has(key))) {
      const relName = marker?.origin ?? key;
      if (!diagram) {
        throw new ConfigError(
          `${classLabel(kls)}.${key} auto-loads through a relationship, but no diagram is bound: call configGlobalResolver(diagram)`,
        );
      }
      if (!entity) {
        throw new ConfigError(`${classLabel(kls)}.${key} uses AutoLoad, but ${classLabel(kls)} is neither an entity nor a subset of one`);
      }
      const rel = entity.relationships.get(relName);
      if (!rel) {
        throw new ConfigError(
          `${classLabel(kls)}.${key}: ${entity.name} has no relationship '${relName}' (has: ${[...entity.relationships.keys()].join(', ') || 'none'})`,
        );
      }
      if (!rel.relationship.loader) {
        throw new ConfigError(
          `${classLabel(kls)}.${key}: relationship ${entity.name}.${relName} has only a page loader; auto-loading needs a batch loader`,
        );
      }
      const fk = rel.relationship.fk;
      if (subset && !fieldNames.has(fk) && registeredFks(entity.kls, relName).size > 1) {
        throw new ConfigError(
          `${classLabel(kls)}.${key}: relationship ${entity.name}.${relName} is registered with different fks ` +
            `(${[...registeredFks(entity.kls, relName)].join(', ')}); keep one authoritative definition ` +
            `or list the fk field '${fk}' in the subset explicitly`,
        );
      }
      plan.steps.push({ kind: 'load', field: key, info, rel });
    }
    if (typeof post === 'function') plan.posts.push({ kind: 'method', field: key, info, method: post as MethodStep['method'] });
    if (info.model) plan.nested.push({ key, info });
  }

  for (const name of Object.getOwnPropertyNames(proto)) {
    const match = /^(resolve|post)([A-Z].*)$/.exec(name);
    if (!match || typeof proto[name] !== 'function') continue;
    const field = match[2]!.charAt(0).toLowerCase() + match[2]!.slice(1);
    if (!fieldNames.has(field)) {
      throw new ConfigError(`${classLabel(kls)}.${name} has no field '${field}' to write to; declare it in the shape`);
    }
  }
  return plan;
}
