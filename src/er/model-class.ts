/**
 * The types of a model class (what `model()` makes): below both models (model.ts) and the field
 * schemas that refer to model classes (schema.ts's `ref`), so neither imports the other for them.
 */
import type { z } from 'zod';

export interface ModelStatics<S extends z.ZodRawShape = z.ZodRawShape> {
  readonly shape: S;
  readonly schema: z.ZodObject<S>;
  /** Validate untrusted data with the zod schema, then build an instance. */
  parse<T extends abstract new (...args: never[]) => unknown>(this: T, data: unknown): InstanceType<T>;
}

export type ModelInstance<S extends z.ZodRawShape> = z.output<z.ZodObject<S>>;
export type ModelInput<S extends z.ZodRawShape> = z.input<z.ZodObject<S>>;

export interface ModelClass<S extends z.ZodRawShape = z.ZodRawShape> extends ModelStatics<S> {
  new (data?: ModelInput<S> | object): ModelInstance<S>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyModelClass = (abstract new (...args: any[]) => any) & ModelStatics<z.ZodRawShape>;
