/**
 * MCP consumer calls: v5 asked `get_query_schema({ name: 'userGetAll' })`, v6 asks
 * `{ entity: 'User', method: 'getAll' }`. Both the SDK form
 * `client.callTool({ name: 'get_query_schema', arguments: { name } })` and direct calls
 * (`get_query_schema({ name })`, `tools.get_query_schema({ name })`) are rewritten.
 */
import type { FlatIndex, OperationKind } from '../../compat/flat-index.js';
import { findProp, valueOf } from '../lib/ast.js';
import type { FileChanges } from '../lib/changes.js';
import { nodesOf } from '../lib/nodes.js';
import { lineColumn } from '../lib/parse.js';
import type { ManualItem } from '../types.js';
import { ts } from '../lib/parse.js';

const TOOLS: Record<string, OperationKind> = { get_query_schema: 'query', get_mutation_schema: 'mutation' };

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function stringValue(expr: ts.Expression | undefined): ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | undefined {
  return expr && (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) ? expr : undefined;
}

function rewriteArguments(ch: FileChanges, args: ts.ObjectLiteralExpression, tool: string, index: FlatIndex | undefined, pending: ManualItem[], alone: boolean): void {
  if (findProp(args, 'entity') || findProp(args, 'method')) return; // already v6
  const nameProp = findProp(args, 'name');
  if (!nameProp) return;
  if (!index && alone) {
    // A file migrated alone (jscodeshift): the schema search is the whole run's.
    ch.manual(args, `MCP ${tool} { name } left as is: resolving the flat name needs the v6 schema, which \`npx ergraph-migrate v5-to-v6 <paths>\` finds itself; or give jscodeshift --schema=<sdl|introspection.json|url>`);
    return;
  }
  if (!index) {
    pending.push({
      ...lineColumn(ch.sf, nameProp.getStart(ch.sf)),
      transform: 'v5-to-v6',
      reason: `MCP ${tool} { name } left as is: no v6 schema was found to resolve the flat name; rerun v5-to-v6 with --schema, a GraphQL Config or --app`,
    });
    return;
  }
  const literal = stringValue(valueOf(nameProp));
  if (!literal) {
    ch.manual(nameProp, `MCP ${tool}: \`name\` is not a string literal; pass { entity, method } instead of the v5 flat name`);
    return;
  }
  const targets = index[TOOLS[tool]!].get(literal.text) ?? [];
  if (targets.length !== 1) {
    ch.manual(
      nameProp,
      targets.length === 0
        ? `MCP ${tool}: \`${literal.text}\` is not a v5 flat name in the given schema; pass { entity, method }`
        : `MCP ${tool}: \`${literal.text}\` is ambiguous (${targets.map((t) => `${t.entity}.${t.method}`).join(', ')})`,
    );
    return;
  }
  const { entity, method } = targets[0]!;
  const quote = ch.source.charAt(literal.getStart(ch.sf));
  ch.replace(nameProp, `entity: ${quote}${entity}${quote}, method: ${quote}${method}${quote}`);
  ch.note(nameProp, `MCP ${tool}: name ${literal.text} → entity ${entity}, method ${method}`);
}

/**
 * A type the client wrote for the v5 tool (`get_query_schema(args: { name: string })`) would
 * reject the rewritten `{ entity, method }` call: its `name` member becomes `entity` and `method`.
 */
function rewriteToolType(ch: FileChanges, node: ts.Node): void {
  if (!(ts.isMethodSignature(node) || ts.isMethodDeclaration(node) || ts.isPropertySignature(node))) return;
  if (!node.name || !ts.isIdentifier(node.name) || !Object.hasOwn(TOOLS, node.name.text)) return;
  const fn = ts.isPropertySignature(node) ? node.type : node;
  const params = fn && (ts.isFunctionTypeNode(fn) || ts.isMethodSignature(fn) || ts.isMethodDeclaration(fn)) ? fn.parameters : undefined;
  const type = params?.[0]?.type;
  if (!type || !ts.isTypeLiteralNode(type)) return;
  const member = type.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === 'name');
  if (!member || !ts.isPropertySignature(member) || type.members.some((m) => m.name && ts.isIdentifier(m.name) && ['entity', 'method'].includes(m.name.text))) return;
  const sep = ch.source.slice(member.getEnd(), member.getEnd() + 1) === ',' ? ',' : ';';
  ch.replace({ start: member.getStart(ch.sf), end: member.getEnd() }, `entity: string${sep} method: string${ch.source.charAt(member.getEnd() - 1) === ';' ? ';' : ''}`);
  ch.note(member, `MCP ${node.name.text} type: { name } → { entity, method }`);
}

export function rewriteMcpCalls(ch: FileChanges, index: FlatIndex | undefined, pending: ManualItem[] = [], alone = false): void {
  if (!/get_(?:query|mutation)_schema/.test(ch.source)) return;
  const { members, calls } = nodesOf(ch.sf);
  if (index) for (const member of members) rewriteToolType(ch, member);
  for (const node of calls) {
    {
      const name = calleeName(node);
      const [first] = node.arguments;
      if (first && ts.isObjectLiteralExpression(first)) {
        if (name === 'callTool') {
          const toolProp = findProp(first, 'name');
          const argsProp = findProp(first, 'arguments');
          const tool = toolProp && stringValue(valueOf(toolProp))?.text;
          const args = argsProp && valueOf(argsProp);
          if (tool && Object.hasOwn(TOOLS, tool) && args && ts.isObjectLiteralExpression(args)) {
            rewriteArguments(ch, args, tool, index, pending, alone);
          }
        } else if (name && Object.hasOwn(TOOLS, name)) {
          rewriteArguments(ch, first, name, index, pending, alone);
        }
      }
    }
  }
}
