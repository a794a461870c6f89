/**
 * Which of the user's modules `ergraph-migrate` may load to find the v6 schema: those whose syntax
 * declares an ER graph (`baseEntity()`, `new ErDiagram(...)`), registers entities into one
 * (`@Base.entity`, `Base.entity(Cls)`), or creates a `GraphQLHandler`. Decided on the parse tree:
 * the same words in a comment or a string (the probe of issue 27 had a module whose only
 * `baseEntity()` was in a comment) never get a module run.
 */
import { parseUnlinked, ts } from '../lib/parse.js';

export type GraphRole = 'declares' | 'registers' | 'creates';

const SCRIPT = /\.[cm]?[jt]sx?$/;
/** A cheap first look: only texts with one of the words are parsed. */
const MENTIONS = /\b(?:baseEntity|ErDiagram|GraphQLHandler|entity)\b/;

/** The called name: `baseEntity` in `baseEntity()`, `eg.baseEntity()` and `new eg.ErDiagram()`. */
function calleeName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

/** `X.entity` (a registration through a family), not a bare `entity`. */
function isEntityAccess(expression: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(expression) && expression.name.text === 'entity';
}

/** What the module's code (not its comments or strings) does with an ER graph, if anything. */
export function graphRoles(text: string, file: string): Set<GraphRole> {
  const roles = new Set<GraphRole>();
  if (!SCRIPT.test(file) || !MENTIONS.test(text)) return roles;
  let sf: ts.SourceFile;
  try {
    sf = parseUnlinked(text, file);
  } catch {
    return roles;
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      if (name === 'baseEntity') roles.add('declares');
      // `Base.entity(Cls)`: the decorator applied by hand.
      if (isEntityAccess(node.expression) && node.arguments.length === 1) roles.add('registers');
    } else if (ts.isNewExpression(node)) {
      const name = calleeName(node.expression);
      if (name === 'ErDiagram') roles.add('declares');
      if (name === 'GraphQLHandler') roles.add('creates');
    } else if (ts.isDecorator(node)) {
      const e = ts.isCallExpression(node.expression) ? node.expression.expression : node.expression;
      if (isEntityAccess(e)) roles.add('registers');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return roles;
}

/** The modules to load, in order: registering ones first, then those declaring the graph, else those creating a handler. */
export function graphModules(texts: ReadonlyMap<string, string>): { candidates: string[]; registering: string[] } {
  const roles = new Map([...texts].map(([file, text]) => [file, graphRoles(text, file)] as const));
  const having = (role: GraphRole) => [...roles].filter(([, r]) => r.has(role)).map(([file]) => file);
  const declaring = having('declares');
  // Modules that only declare the graph are loaded first: one creating a handler may also start a server.
  const candidates = declaring.length > 0 ? declaring : having('creates');
  const registering = having('registers').filter((file) => !candidates.includes(file));
  return { candidates, registering };
}
