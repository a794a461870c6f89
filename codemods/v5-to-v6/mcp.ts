/**
 * MCP consumer calls: v5 asked `get_query_schema({ name: 'userGetAll' })`, v6 asks
 * `{ entity: 'User', method: 'getAll' }`. Both the SDK form
 * `client.callTool({ name: 'get_query_schema', arguments: { name } })` and direct calls
 * (`get_query_schema({ name })`, `tools.get_query_schema({ name })`) are rewritten.
 */
import type { FlatIndex, OperationKind } from '../../compat/flat-index.js';
import { findProp, valueOf } from '../lib/ast.js';
import type { FileChanges } from '../lib/changes.js';
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

function rewriteArguments(ch: FileChanges, args: ts.ObjectLiteralExpression, tool: string, index: FlatIndex): void {
  if (findProp(args, 'entity') || findProp(args, 'method')) return; // already v6
  const nameProp = findProp(args, 'name');
  if (!nameProp) return;
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

export function rewriteMcpCalls(ch: FileChanges, index: FlatIndex): void {
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const [first] = node.arguments;
      if (first && ts.isObjectLiteralExpression(first)) {
        if (name === 'callTool') {
          const toolProp = findProp(first, 'name');
          const argsProp = findProp(first, 'arguments');
          const tool = toolProp && stringValue(valueOf(toolProp))?.text;
          const args = argsProp && valueOf(argsProp);
          if (tool && Object.hasOwn(TOOLS, tool) && args && ts.isObjectLiteralExpression(args)) {
            rewriteArguments(ch, args, tool, index);
          }
        } else if (name && Object.hasOwn(TOOLS, name)) {
          rewriteArguments(ch, first, name, index);
        }
      }
    }
    node.forEachChild(visit);
  };
  visit(ch.sf);
}
