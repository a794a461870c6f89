/**
 * Subsets: response models that take some fields of an entity and add their own. A subset
 * knows its source entity, so fields named like the entity's relationships load themselves.
 */
import { z } from 'zod';
import { ConfigError } from '../er/errors.js';
import { exclude, isModelClass, model, type AnyModelClass, type ModelClass } from '../er/model.js';
import { copyField, type Marker } from '../er/schema.js';
import { classLabel } from '../er/names.js';

type Shaped<S extends z.ZodRawShape> = AnyModelClass & { readonly shape: S };

/** `field → alias` (`__expose__`), or `field → collector name(s)` (`__collect__`). */
export type ExposeMap = Readonly<Record<string, string>>;
export type SendToMap = Readonly<Record<string, string | readonly string[]>>;

interface CommonSubsetOptions<S extends z.ZodRawShape> {
  kls: Shaped<S>;
  /** Kept in the subset (loadable, readable by `resolveX`/`postX`) but left out of output, like `exclude()`. */
  excludedFields?: readonly (keyof S & string)[];
  /** The per-subset form of `static __expose__`: `{ name: 'projectName' }` → `AncestorContext().projectName`. */
  exposeAs?: ExposeMap;
  /** The per-subset form of `static __collect__`: `{ title: 'titles' }` → `Collector('titles')` of an ancestor. */
  sendTo?: SendToMap;
  /** Publish this subset for DTO federation. */
  federationPublic?: boolean;
  /** Join key when the source entity declares several federation keys. */
  federationKey?: string;
}

/** Either the fields to keep, or (`omitFields`) the source fields to leave out; not both. */
export type SubsetConfigOptions<S extends z.ZodRawShape, K extends keyof S & string, O extends keyof S & string = never> =
  CommonSubsetOptions<S> & ({ fields: readonly K[]; omitFields?: never } | { omitFields: readonly O[]; fields?: never });

/** The source fields a subset keeps: `K` (listed), or every field but the omitted `O`. */
export type KeptFields<S extends z.ZodRawShape, K extends keyof S & string, O extends keyof S & string> = [O] extends [never]
  ? K
  : Exclude<keyof S & string, O>;

export class SubsetConfig<
  S extends z.ZodRawShape = z.ZodRawShape,
  K extends keyof S & string = keyof S & string,
  O extends keyof S & string = never,
> {
  readonly kls: Shaped<S>;
  /** The source fields the subset keeps (what is left after `omitFields`, when given). */
  readonly fields: readonly KeptFields<S, K, O>[];
  readonly omitFields: readonly O[];
  readonly excludedFields: readonly (keyof S & string)[];
  readonly exposeAs: ExposeMap;
  readonly sendTo: SendToMap;
  readonly federationPublic: boolean;
  readonly federationKey?: string;
  constructor(options: SubsetConfigOptions<S, K, O>) {
    this.kls = options.kls;
    const where = `SubsetConfig(${isModelClass(options.kls) ? classLabel(options.kls) : String(options.kls)})`;
    if (options.fields !== undefined && options.omitFields !== undefined) {
      throw new ConfigError(`${where}: give fields or omitFields, not both`);
    }
    if (options.omitFields !== undefined) {
      if (!isModelClass(options.kls)) throw new ConfigError(`${where} needs a model class`);
      if (!Array.isArray(options.omitFields)) throw new ConfigError(`${where}: omitFields must be a list of field names`);
      for (const field of options.omitFields) {
        if (!(field in options.kls.shape)) throw new ConfigError(`${where}: omitFields names '${field}', which ${classLabel(options.kls)} does not have`);
      }
      const omitted = new Set<string>(options.omitFields);
      this.fields = Object.keys(options.kls.shape).filter((f) => !omitted.has(f)) as KeptFields<S, K, O>[];
      this.omitFields = options.omitFields;
    } else {
      this.fields = options.fields as readonly KeptFields<S, K, O>[];
      this.omitFields = [];
    }
    this.excludedFields = options.excludedFields ?? [];
    this.exposeAs = options.exposeAs ?? {};
    this.sendTo = options.sendTo ?? {};
    this.federationPublic = options.federationPublic ?? false;
    this.federationKey = options.federationKey;
  }
}

/**
 * Every subset declared with `federationPublic: true`, in declaration order: a federation
 * member finds the DTOs it publishes here (those whose source entity is in its diagram).
 */
export const publicSubsets = new Set<AnyModelClass>();

/** The subset declaration of a class: `static __subset__` as a `SubsetConfig` or `[Entity, fields]`. */
export function subsetOf(kls: Function): SubsetConfig | undefined {
  const declared = (kls as { __subset__?: unknown }).__subset__;
  if (declared instanceof SubsetConfig) return declared as unknown as SubsetConfig;
  if (Array.isArray(declared) && declared.length === 2 && isModelClass(declared[0])) {
    return new SubsetConfig({ kls: declared[0], fields: declared[1] as string[] }) as SubsetConfig;
  }
  return undefined;
}

export type SubsetClass<S extends z.ZodRawShape> = ModelClass<S> & { readonly __subset__: SubsetConfig };

type Picked<S extends z.ZodRawShape, K extends keyof S, E extends z.ZodRawShape> = Omit<Pick<S, K>, keyof E> & E;

/**
 * A structural bound on purpose: a generic `SubsetConfig<S, K, O>` here would lend its unfixed
 * parameters to an inline `new SubsetConfig({ ... })` and spoil what it infers from `omitFields`.
 */
interface SubsetConfigLike {
  readonly kls: { readonly shape: z.ZodRawShape };
  readonly fields: readonly string[];
  readonly federationPublic: boolean;
}
type ShapeOf<C extends SubsetConfigLike> = C['kls']['shape'];

/** A model with some fields of `source` (plus `extra` ones) that knows its source entity. */
export function DefineSubset<S extends z.ZodRawShape, K extends keyof S & string, E extends z.ZodRawShape = {}>(
  source: Shaped<S>,
  fields: readonly K[],
  extra?: E,
): SubsetClass<Picked<S, K, E>>;
export function DefineSubset<C extends SubsetConfigLike, E extends z.ZodRawShape = {}>(
  config: C,
  extra?: E,
): SubsetClass<Picked<ShapeOf<C>, Extract<C['fields'][number], keyof ShapeOf<C>>, E>>;
export function DefineSubset(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  source: AnyModelClass | SubsetConfig<any, any, any>,
  fieldsOrExtra?: readonly string[] | z.ZodRawShape,
  extra?: z.ZodRawShape,
): SubsetClass<z.ZodRawShape> {
  const config =
    source instanceof SubsetConfig ? source : new SubsetConfig({ kls: source, fields: fieldsOrExtra as string[] });
  const extraShape = (source instanceof SubsetConfig ? fieldsOrExtra : extra) ?? {};
  if (!isModelClass(config.kls)) throw new ConfigError(`DefineSubset needs a model class, got ${String(config.kls)}`);
  if (!Array.isArray(config.fields)) throw new ConfigError(`DefineSubset(${classLabel(config.kls)}) needs a list of field names`);
  const sourceShape = config.kls.shape;
  const shape: Record<string, z.ZodType> = {};
  for (const field of config.fields) {
    if (!(field in sourceShape)) throw new ConfigError(`DefineSubset: ${classLabel(config.kls)} has no field '${field}'`);
    shape[field] = sourceShape[field] as z.ZodType;
  }
  for (const field of config.excludedFields) {
    if (!(field in shape)) {
      throw new ConfigError(`DefineSubset(${classLabel(config.kls)}): excludedFields names '${field}', which the subset does not keep`);
    }
    // A copy: marking the entity's own schema would hide the field from the entity too.
    shape[field] = exclude(copyField(shape[field]!));
  }
  Object.assign(shape, extraShape);
  const names = new Set(Object.keys(shape));
  for (const [option, map] of [['exposeAs', config.exposeAs], ['sendTo', config.sendTo]] as const) {
    for (const field of Object.keys(map)) {
      if (!names.has(field)) throw new ConfigError(`DefineSubset(${classLabel(config.kls)}): ${option} names '${field}', which the subset does not have`);
    }
  }
  const Subset = model(shape);
  Object.defineProperty(Subset, '__subset__', { value: config, enumerable: true });
  if (config.federationPublic) publicSubsets.add(Subset as unknown as AnyModelClass);
  return Subset as unknown as SubsetClass<z.ZodRawShape>;
}

export interface AutoLoadMarker extends Marker {
  kind: 'autoload';
  origin?: string;
}

/** Load a field through a relationship of the source entity; `origin` names it when the field name differs. */
export function AutoLoad(options: { origin?: string } = {}): AutoLoadMarker {
  return { kind: 'autoload', origin: options.origin };
}
