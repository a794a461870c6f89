/**
 * Random valid documents over a world's schema: fields with aliases (unique ones, and exact
 * duplicates whose selections merge), named fragments (spread once or several times) and
 * inline fragments, `@skip`/`@include` on literals and variables, arguments as literals or
 * variables (with defaults, nullable variables with a default in non-null positions), a
 * variable object that sometimes omits, nulls or breaks a value, `__typename`, and now and
 * then several operations with an `operationName`.
 */
import {
  getNamedType,
  GraphQLBoolean,
  GraphQLNonNull,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLNamedType,
} from 'graphql';
import type { Tape } from './random.js';

export interface Doc {
  text: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

const MAX_DEPTH = 6;

interface Variable {
  name: string;
  type: string;
  input: GraphQLInputType;
  defaultText?: string;
}

class Writer {
  private readonly variables: Variable[] = [];
  private readonly fragments: string[] = [];
  private readonly fragmentsOn = new Map<string, string[]>();
  private counter = 0;

  constructor(
    private readonly tape: Tape,
    private readonly schema: GraphQLSchema,
  ) {}

  document(): Doc {
    const mutation = this.schema.getMutationType();
    const root = mutation && this.tape.chance(0.25) ? mutation : this.schema.getQueryType()!;
    const kind = root === mutation ? 'mutation' : 'query';
    const body = this.selectionSet(root, 0);
    const named = this.tape.chance(0.3);
    const name = named ? 'Op' : '';
    const defs = this.variables.length
      ? `(${this.variables.map((v) => `$${v.name}: ${v.type}${v.defaultText !== undefined ? ` = ${v.defaultText}` : ''}`).join(', ')})`
      : '';
    let text = `${kind} ${name}${defs} { ${body} }`;
    if (!named && !defs && kind === 'query' && this.tape.chance(0.2)) text = `{ ${body} }`;
    let operationName: string | undefined;
    if (named && this.tape.chance(0.3)) {
      text += ' query Other { __typename }';
      operationName = this.tape.chance(0.8) ? 'Op' : 'Other';
    }
    text += this.fragments.map((f) => ` ${f}`).join('');
    return { text, variables: this.values(), operationName };
  }

  private values(): Record<string, unknown> | undefined {
    if (!this.variables.length && this.tape.chance(0.5)) return undefined;
    const out: Record<string, unknown> = {};
    for (const v of this.variables) {
      const optional = !isNonNullType(v.input) || v.defaultText !== undefined;
      const how = this.tape.pick(20);
      if (how === 0 && optional) continue; // omitted: the default, or no value
      if (how === 1 && !isNonNullType(v.input)) out[v.name] = null;
      else if (how === 2) out[v.name] = { wrong: true };
      else out[v.name] = this.value(v.input);
    }
    return out;
  }

  private selectionSet(type: GraphQLObjectType, depth: number): string {
    const parts: string[] = [];
    const done: { alias: string; name: string; args: string; field: GraphQLField<unknown, unknown> }[] = [];
    const count = 1 + this.tape.pick(3);
    for (let i = 0; i < count; i++) {
      const choice = this.tape.pick(14);
      if (choice === 1) parts.push(`${this.tape.chance(0.3) ? `t${this.counter++}: ` : ''}__typename${this.directive()}`);
      else if (choice === 2 && depth < MAX_DEPTH) {
        const condition = this.tape.chance(0.5) ? ` on ${type.name}` : '';
        parts.push(`...${condition}${this.directive()} { ${this.selectionSet(type, depth)} }`);
      } else if (choice === 3 && depth < MAX_DEPTH) parts.push(`...${this.fragment(type, depth)}${this.directive()}`);
      else if (choice === 4 && done.length) {
        const twin = this.tape.oneOf(done);
        parts.push(`${twin.alias}${twin.name}${twin.args}${this.directive()}${this.sub(twin.field, depth)}`);
      } else {
        const field = this.field(type, depth);
        if (!field) parts.push('__typename');
        else {
          const args = this.args(field);
          const alias = args || this.tape.chance(0.2) ? `a${this.counter++}: ` : '';
          done.push({ alias, name: field.name, args, field });
          parts.push(`${alias}${field.name}${args}${this.directive()}${this.sub(field, depth)}`);
        }
      }
    }
    return parts.join(' ');
  }

  private field(type: GraphQLObjectType, depth: number): GraphQLField<unknown, unknown> | undefined {
    const all = Object.values(type.getFields());
    const fields = depth >= MAX_DEPTH ? all.filter((f) => isLeafType(getNamedType(f.type))) : all;
    return fields.length ? this.tape.oneOf(fields) : undefined;
  }

  private sub(field: GraphQLField<unknown, unknown>, depth: number): string {
    const named = getNamedType(field.type);
    return isObjectType(named) ? ` { ${this.selectionSet(named, depth + 1)} }` : '';
  }

  /** A fragment on `type`: one defined before (spread again), or a new one. */
  private fragment(type: GraphQLObjectType, depth: number): string {
    const existing = this.fragmentsOn.get(type.name);
    if (existing?.length && this.tape.chance(0.5)) return this.tape.oneOf(existing);
    const name = `F${this.counter++}`;
    const body = this.selectionSet(type, depth); // spreads only finished fragments: no cycles
    this.fragments.push(`fragment ${name} on ${type.name} { ${body} }`);
    this.fragmentsOn.set(type.name, [...(existing ?? []), name]);
    return name;
  }

  private directive(): string {
    if (!this.tape.chance(0.15)) return '';
    const which = this.tape.chance(0.5) ? 'skip' : 'include';
    if (this.tape.chance(0.4)) return ` @${which}(if: ${this.tape.chance(0.5)})`;
    // A nullable variable needs a default to stand in `if: Boolean!`; sent as null it fails.
    const withDefault = this.tape.chance(0.3);
    const type = withDefault ? GraphQLBoolean : new GraphQLNonNull(GraphQLBoolean);
    return ` @${which}(if: $${this.variable(type, withDefault ? String(this.tape.chance(0.5)) : undefined)})`;
  }

  private variable(input: GraphQLInputType, defaultText?: string): string {
    const name = `v${this.counter++}`;
    this.variables.push({ name, type: String(input), input, defaultText });
    return name;
  }

  private args(field: GraphQLField<unknown, unknown>): string {
    const parts: string[] = [];
    for (const arg of field.args) {
      const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
      if (!required && !this.tape.chance(0.5)) continue;
      parts.push(`${arg.name}: ${this.argValue(arg.type)}`);
    }
    return parts.length ? `(${parts.join(', ')})` : '';
  }

  private argValue(type: GraphQLInputType): string {
    if (!this.tape.chance(0.35)) return this.literal(type);
    // A nullable variable with a default may stand where the argument is non-null.
    if (isNonNullType(type) && this.tape.chance(0.3)) {
      return `$${this.variable(type.ofType as GraphQLInputType, this.literal(type))}`;
    }
    const withDefault = this.tape.chance(0.3);
    return `$${this.variable(type, withDefault ? this.literal(type) : undefined)}`;
  }

  private literal(type: GraphQLInputType): string {
    if (!isNonNullType(type) && this.tape.chance(0.1)) return 'null';
    const inner = isNonNullType(type) ? (type.ofType as GraphQLInputType) : type;
    if (isListType(inner)) {
      const item = inner.ofType as GraphQLInputType;
      if (this.tape.chance(0.3)) return this.literal(item); // a single value coerces to a list of one
      return `[${Array.from({ length: this.tape.pick(3) }, () => this.literal(item)).join(', ')}]`;
    }
    if (isEnumType(inner)) return this.tape.oneOf(inner.getValues().map((v) => v.name));
    if (isInputObjectType(inner)) {
      return `{ ${Object.values(inner.getFields()).map((f) => `${f.name}: ${this.literal(f.type)}`).join(', ')} }`;
    }
    return JSON.stringify(this.scalar((inner as GraphQLNamedType).name));
  }

  private value(type: GraphQLInputType): unknown {
    if (!isNonNullType(type) && this.tape.chance(0.1)) return null;
    const inner = isNonNullType(type) ? (type.ofType as GraphQLInputType) : type;
    if (isListType(inner)) {
      const item = inner.ofType as GraphQLInputType;
      if (this.tape.chance(0.3)) return this.value(item);
      return Array.from({ length: this.tape.pick(3) }, () => this.value(item));
    }
    if (isEnumType(inner)) return this.tape.oneOf(inner.getValues().map((v) => v.name));
    if (isInputObjectType(inner)) return Object.fromEntries(Object.values(inner.getFields()).map((f) => [f.name, this.value(f.type)]));
    if (isScalarType(inner)) return this.scalar(inner.name);
    return null;
  }

  private scalar(name: string): unknown {
    switch (name) {
      case 'Int':
        return this.tape.oneOf([0, 1, 2, -1, 5]);
      case 'Float':
        return this.tape.oneOf([1.5, 0, -2]);
      case 'Boolean':
        return this.tape.chance(0.5);
      case 'DateTime':
        return '2024-01-01T00:00:00.000Z';
      case 'BigInt':
        return '12';
      default:
        return this.tape.oneOf(['a', 'ab', '']);
    }
  }
}

export function makeDocument(tape: Tape, schema: GraphQLSchema): Doc {
  return new Writer(tape, schema).document();
}
