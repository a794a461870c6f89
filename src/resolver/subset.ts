/**
 * Subsets: response models that take some fields of an entity and add their own. A subset
 * knows its source entity, so fields named like the entity's relationships load themselves.
 */
import { z } from 'zod';
import { ConfigError } from '../er/errors.js';
import { isModelClass, model, type AnyModelClass, type ModelClass } from '../er/model.js';
import type { Marker } from '../er/schema.js';
import { classLabel } from '../er/names.js';

type Shaped<S extends z.ZodRawShape> = AnyModelClass & { readonly shape: S };

export interface SubsetConfigOptions<S extends z.ZodRawShape, K extends keyof S & string> {
  kls: Shaped<S>;
  fields: readonly K[];
  /** Publish this subset for DTO federation. */
  federationPublic?: boolean;
  /** Join key when the source entity declares several federation keys. */
  federationKey?: string;
}

export class SubsetConfig<S extends z.ZodRawShape = z.ZodRawShape, K extends keyof S & string = keyof S & string> {
  readonly kls: Shaped<S>;
  readonly fields: readonly K[];
  readonly federationPublic: boolean;
  readonly federationKey?: string;
  constructor(options: SubsetConfigOptions<S, K>) {
    this.kls = options.kls;
    this.fields = options.fields;
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
  if (declared instanceof SubsetConfig) return declared;
  if (Array.isArray(declared) && declared.length === 2 && isModelClass(declared[0])) {
    return new SubsetConfig({ kls: declared[0], fields: declared[1] as string[] }) as SubsetConfig;
  }
  return undefined;
}

export type SubsetClass<S extends z.ZodRawShape> = ModelClass<S> & { readonly __subset__: SubsetConfig };

type Picked<S extends z.ZodRawShape, K extends keyof S, E extends z.ZodRawShape> = Omit<Pick<S, K>, keyof E> & E;

/** A model with some fields of `source` (plus `extra` ones) that knows its source entity. */
export function DefineSubset<S extends z.ZodRawShape, K extends keyof S & string, E extends z.ZodRawShape = {}>(
  source: Shaped<S>,
  fields: readonly K[],
  extra?: E,
): SubsetClass<Picked<S, K, E>>;
export function DefineSubset<S extends z.ZodRawShape, K extends keyof S & string, E extends z.ZodRawShape = {}>(
  config: SubsetConfig<S, K>,
  extra?: E,
): SubsetClass<Picked<S, K, E>>;
export function DefineSubset(
  source: AnyModelClass | SubsetConfig,
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
  Object.assign(shape, extraShape);
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
