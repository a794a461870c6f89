/**
 * Validation of the grouped shape (spec 7). graphql-js would say "Field "User" of type
 * "UserQuery!" must have a selection of subfields" for a bare group and "Cannot query field"
 * for unknown groups and methods; clients of a grouped schema need to know what to select
 * instead, so those cases get their own errors with a code, a path and the available methods.
 * The standard rules still run; only their reports on nodes handled here are dropped.
 */
import {
  FieldsOnCorrectTypeRule,
  GraphQLError,
  Kind,
  ScalarLeafsRule,
  specifiedRules,
  type ASTNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { GroupInfo } from './operations.js';

export interface GroupIndex {
  query: ReadonlyMap<string, GroupInfo>;
  mutation: ReadonlyMap<string, GroupInfo>;
}

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

function* fieldsIn(set: SelectionSetNode, fragments: Fragments, seen: Set<string>): Generator<FieldNode> {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) yield selection;
    else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fieldsIn(selection.selectionSet, fragments, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) yield* fieldsIn(fragment.selectionSet, fragments, seen);
      seen.delete(selection.name.value);
    }
  }
}

const list = (names: readonly string[]) => names.join(', ') || 'none';

function groupErrors(context: ValidationContext, groups: GroupIndex, handled: WeakSet<ASTNode>) {
  const schema = context.getSchema();
  const document = context.getDocument();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const report = (node: FieldNode, message: string, path: string[], extensions: Record<string, unknown>) => {
    if (handled.has(node)) return; // a fragment spread twice is reported once
    handled.add(node);
    context.reportError(new GraphQLError(message, { nodes: node, path, extensions }));
  };

  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION || def.operation === 'subscription') continue;
    const kind = def.operation === 'query' ? 'query' : 'mutation';
    const KIND = kind.toUpperCase();
    const byName = groups[kind];
    const root = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
    for (const field of fieldsIn(def.selectionSet, fragments, new Set())) {
      const name = field.name.value;
      if (name.startsWith('__')) continue;
      const group = byName.get(name);
      if (!group) {
        if (root?.getFields()[name]) continue; // a contributed root field: graphql-js checks it
        report(field, `Unknown ${kind} group '${name}'; available: ${list([...byName.keys()])}`, [name], {
          code: `UNKNOWN_${KIND}`,
          available_groups: [...byName.keys()],
        });
        continue;
      }
      if (!field.selectionSet) {
        report(
          field,
          `'${name}' is a group of ${kind} methods and needs one selected, e.g. ${kind === 'mutation' ? 'mutation ' : ''}{ ${name} { ${group.methods[0]} ... } }; available methods: ${list(group.methods)}`,
          [name],
          { code: 'BARE_GROUP_FIELD', available_methods: group.methods },
        );
        continue;
      }
      for (const method of fieldsIn(field.selectionSet, fragments, new Set())) {
        const methodName = method.name.value;
        if (methodName.startsWith('__') || group.methods.includes(methodName)) continue;
        report(method, `Unknown ${kind} method '${methodName}' of ${name}; available methods: ${list(group.methods)}`, [name, methodName], {
          code: `UNKNOWN_${KIND}`,
          available_methods: group.methods,
        });
      }
    }
  }
}

/** A standard rule whose reports on nodes already handled by the group rule are dropped. */
function except(rule: ValidationRule, handled: WeakSet<ASTNode>): ValidationRule {
  return (context) => {
    const filtered = new Proxy(context, {
      get(target, property) {
        if (property === 'reportError') {
          return (error: GraphQLError) => {
            if (!error.nodes?.some((node) => handled.has(node))) target.reportError(error);
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return rule(filtered);
  };
}

/** The rules for one `validate` call (they share the set of handled nodes). */
export function groupedValidationRules(groups: GroupIndex): ValidationRule[] {
  const handled = new WeakSet<ASTNode>();
  // Runs first and walks the whole document on entering it, so every handled node is known
  // before the standard rules visit fields (fragment definitions may precede operations).
  const groupRule: ValidationRule = (context) => ({ Document: () => groupErrors(context, groups, handled) });
  return [
    groupRule,
    ...specifiedRules.map((rule) => (rule === FieldsOnCorrectTypeRule || rule === ScalarLeafsRule ? except(rule, handled) : rule)),
  ];
}
