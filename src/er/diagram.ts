/**
 * The ER diagram: entities, their relationships and their root operations. A diagram is
 * validated once, on first use, and every ambiguity becomes a `ConfigError` naming the
 * entity or relationship at fault.
 */
import { fileURLToPath } from 'node:url';
import { ConfigError } from './errors.js';
import { modelFields, isModelClass, type AnyModelClass } from './model.js';
import { className, classLabel, nameClass, nameFromDecoratorContext } from './names.js';
import { decoratedOperations, type MutationConfig, type Operation, type QueryConfig } from './operations.js';
import { Relationship } from './relationship.js';

export interface EntityOptions {
  kls: AnyModelClass;
  relationships?: readonly Relationship[];
  queries?: readonly QueryConfig[];
  mutations?: readonly MutationConfig[];
  /** Module path used to tell apart entities with the same class name in forward references. */
  module?: string;
  /**
   * The entity's GraphQL name when the class name cannot be trusted (minified bundles, or
   * esbuild's `_User` for a class whose decorators mention it); defaults to the class name.
   */
  name?: string;
}

export class Entity {
  readonly kls: AnyModelClass;
  readonly relationships: readonly Relationship[];
  readonly queries: readonly QueryConfig[];
  readonly mutations: readonly MutationConfig[];
  readonly module: string | undefined;

  constructor(options: EntityOptions) {
    if (!isModelClass(options.kls)) {
      throw new ConfigError(`Entity kls must be a model class, got ${describe(options.kls)}`);
    }
    this.kls = options.kls;
    if (options.name !== undefined) nameClass(options.kls, options.name, `Entity ${classLabel(options.kls)}`);
    this.relationships = options.relationships ?? [];
    this.queries = options.queries ?? [];
    this.mutations = options.mutations ?? [];
    this.module = options.module ?? callerModule();
  }
}

/** A relationship with its target resolved against one diagram. */
export interface ResolvedRelationship {
  readonly relationship: Relationship;
  readonly owner: EntityInfo;
  readonly target: AnyModelClass;
  readonly list: boolean;
}

export interface EntityInfo {
  readonly kls: AnyModelClass;
  readonly name: string;
  readonly relationships: ReadonlyMap<string, ResolvedRelationship>;
  readonly queries: readonly Operation[];
  readonly mutations: readonly Operation[];
}

/** (class, relationship name) -> the FK each diagram registered it with: detects ambiguity. */
const registrations = new WeakMap<AnyModelClass, Map<string, Set<string>>>();

function register(kls: AnyModelClass, rel: Relationship) {
  let byName = registrations.get(kls);
  if (!byName) registrations.set(kls, (byName = new Map()));
  let fks = byName.get(rel.name);
  if (!fks) byName.set(rel.name, (fks = new Set()));
  fks.add(rel.fk);
}

/** Every FK registered for this class and relationship name, across all diagrams. */
export function registeredFks(kls: AnyModelClass, name: string): ReadonlySet<string> {
  return registrations.get(kls)?.get(name) ?? new Set();
}

export class ErDiagram {
  readonly entities: readonly Entity[];
  private infos?: Map<AnyModelClass, EntityInfo>;

  constructor(options: { entities: readonly Entity[] }) {
    if (!options || !Array.isArray(options.entities)) {
      throw new ConfigError('ErDiagram takes { entities: Entity[] } (the v4 name `configs` was renamed in v5)');
    }
    this.entities = options.entities;
    for (const entity of this.entities) for (const rel of entity.relationships) register(entity.kls, rel);
  }

  /** Validated view of every entity; built once. */
  entityInfos(): ReadonlyMap<AnyModelClass, EntityInfo> {
    return (this.infos ??= build(this));
  }

  /** The entity entry for a class, or undefined when the class is not part of this diagram. */
  entityOf(kls: AnyModelClass): EntityInfo | undefined {
    return this.entityInfos().get(kls);
  }

  /** Validate now (otherwise done on first use); returns the diagram for chaining. */
  validate(): this {
    this.entityInfos();
    return this;
  }
}

function build(diagram: ErDiagram): Map<AnyModelClass, EntityInfo> {
  const byName = new Map<string, Entity[]>();
  const seen = new Map<AnyModelClass, Entity>();
  for (const entity of diagram.entities) {
    const name = className(entity.kls, 'entity');
    if (seen.has(entity.kls)) throw new ConfigError(`Entity ${name} is registered twice in one diagram`);
    seen.set(entity.kls, entity);
    byName.set(name, [...(byName.get(name) ?? []), entity]);
  }

  const infos = new Map<AnyModelClass, EntityInfo>();
  for (const entity of diagram.entities) {
    const kls = entity.kls;
    const name = className(kls, 'entity');
    const relationships = new Map<string, ResolvedRelationship>();
    const info: EntityInfo = {
      kls,
      name,
      relationships,
      queries: operationsOf(entity, 'query'),
      mutations: operationsOf(entity, 'mutation'),
    };
    const fields = new Set(modelFields(kls).map((f) => f.key));
    for (const rel of entity.relationships) {
      if (!(rel instanceof Relationship)) continue; // other edge kinds (federation) are resolved by their owners
      const where = `${name}.${rel.name}`;
      if (!rel.name) throw new ConfigError(`A relationship of ${name} has no name (name is required since v4)`);
      if (relationships.has(rel.name)) throw new ConfigError(`Relationship ${where} is declared twice`);
      if (fields.has(rel.name)) {
        throw new ConfigError(`Relationship ${where} clashes with the field ${rel.name} of ${name}`);
      }
      if (!fields.has(rel.fk)) {
        throw new ConfigError(`Relationship ${where} uses fk '${rel.fk}', which is not a field of ${name}`);
      }
      if (!rel.loader && !rel.pageLoader) throw new ConfigError(`Relationship ${where} has no loader`);
      const { target, list } = resolveTarget(rel.target, byName, where);
      if (!seen.has(target)) {
        throw new ConfigError(`Relationship ${where} targets ${classLabel(target)}, which is not an entity of this diagram`);
      }
      relationships.set(rel.name, { relationship: rel, owner: info, target, list });
    }
    infos.set(kls, info);
  }
  return infos;
}

function operationsOf(entity: Entity, kind: 'query' | 'mutation'): Operation[] {
  const external = (kind === 'query' ? entity.queries : entity.mutations).map((c) => c.operation);
  const all = [...decoratedOperations(entity.kls).filter((op) => op.kind === kind), ...external];
  const names = new Set<string>();
  for (const op of all) {
    if (names.has(op.name)) throw new ConfigError(`${classLabel(entity.kls)} declares the ${kind} '${op.name}' twice`);
    names.add(op.name);
  }
  return all;
}

function resolveTarget(
  ref: Relationship['target'],
  byName: Map<string, Entity[]>,
  where: string,
): { target: AnyModelClass; list: boolean } {
  let value: unknown = ref;
  if (typeof value === 'function' && !isModelClass(value)) value = (value as () => unknown)();
  let list = false;
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new ConfigError(`Relationship ${where}: a list target holds exactly one entity`);
    list = true;
    value = value[0];
  }
  if (typeof value === 'string') return { target: resolveForwardRef(value, byName, where), list };
  if (!isModelClass(value)) throw new ConfigError(`Relationship ${where}: target ${describe(value)} is not a model class`);
  return { target: value, list };
}

/** `'module/path:ClassName'` (or Python-style `'pkg.module:ClassName'`) by class name, module disambiguating. */
function resolveForwardRef(ref: string, byName: Map<string, Entity[]>, where: string): AnyModelClass {
  const colon = ref.lastIndexOf(':');
  const className = colon >= 0 ? ref.slice(colon + 1) : ref;
  const modulePath = colon >= 0 ? ref.slice(0, colon) : '';
  const candidates = byName.get(className) ?? [];
  if (candidates.length === 1) return candidates[0]!.kls;
  if (candidates.length === 0) {
    throw new ConfigError(`Relationship ${where}: forward reference '${ref}' names no entity of this diagram`);
  }
  const wanted = normalizeModule(modulePath.includes('/') ? modulePath : modulePath.replaceAll('.', '/'));
  const matching = candidates.filter((e) => e.module && normalizeModule(e.module).endsWith(wanted));
  if (wanted && matching.length === 1) return matching[0]!.kls;
  throw new ConfigError(
    `Relationship ${where}: forward reference '${ref}' is ambiguous between ${candidates.length} entities named ${className}`,
  );
}

const normalizeModule = (path: string) => path.replace(/\\/g, '/').replace(/\.[cm]?[jt]sx?$/, '');

function describe(value: unknown): string {
  return typeof value === 'function' ? classLabel(value) : JSON.stringify(value) ?? String(value);
}

/** The source file that declared an entity, read off the stack; only used to disambiguate. */
export function callerModule(): string | undefined {
  const stack = new Error().stack?.split('\n').slice(1) ?? [];
  for (const line of stack) {
    const match = /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/.exec(line.trim());
    if (!match) continue;
    const file = match[1]!.startsWith('file://') ? fileURLToPath(match[1]!) : match[1]!;
    if (!/[\\/]src[\\/]er[\\/]|[\\/]dist[\\/]src[\\/]er[\\/]|node_modules/.test(file)) return file;
  }
  return undefined;
}

/** Options of `Base.entity(Cls, options)`. */
export interface EntityNameOptions {
  /** The GraphQL name, for a class whose name a tool changed (see `EntityOptions.name`). */
  name?: string;
}

export interface EntityFamily {
  /**
   * Register a class in the family: `@Base.entity` (either decorator mode; a standard decorator
   * also records the class name as written) or `Base.entity(Cls)` / `Base.entity(Cls, { name })`.
   */
  entity<C extends AnyModelClass>(kls: C, options?: EntityNameOptions | ClassDecoratorContext): C;
  /** The family's one diagram; classes read their `static __relationships__` here. */
  getDiagram(): ErDiagram;
}

/** A family of entities sharing one authoritative diagram. */
export function baseEntity(): EntityFamily {
  const members: Entity[] = [];
  let diagram: ErDiagram | undefined;
  return {
    entity(kls, options) {
      if (!isModelClass(kls)) throw new ConfigError(`@entity needs a model class, got ${describe(kls)}`);
      if ((options as ClassDecoratorContext | undefined)?.kind === 'class') nameFromDecoratorContext(kls, options);
      else if (options && typeof options === 'object' && options.name !== undefined) nameClass(kls, options.name, `Base.entity(${classLabel(kls)})`);
      members.push(new Entity({ kls, module: callerModule() }));
      diagram = undefined;
      return kls;
    },
    getDiagram() {
      return (diagram ??= new ErDiagram({
        entities: members.map(
          (e) =>
            new Entity({
              kls: e.kls,
              module: e.module,
              relationships: (e.kls as { __relationships__?: Relationship[] }).__relationships__ ?? [],
            }),
        ),
      }));
    },
  };
}
