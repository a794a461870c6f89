/**
 * Every node of a file the transforms look for, collected in one walk and shared: each step used
 * to walk the whole tree for each kind of node it wanted (a dozen walks per file in a chain).
 */
import { ts } from './parse.js';

export interface NodeIndex {
  news: ts.NewExpression[];
  calls: ts.CallExpression[];
  tagged: ts.TaggedTemplateExpression[];
  classes: ts.ClassDeclaration[];
  properties: ts.PropertyDeclaration[];
  accesses: ts.PropertyAccessExpression[];
  /** Method/property signatures and method declarations (MCP tool types). */
  members: (ts.MethodSignature | ts.MethodDeclaration | ts.PropertySignature)[];
  identifiers: Map<string, ts.Identifier[]>;
}

const cache = new WeakMap<ts.SourceFile, NodeIndex>();

export function nodesOf(sf: ts.SourceFile): NodeIndex {
  let index = cache.get(sf);
  if (index) return index;
  const built: NodeIndex = { news: [], calls: [], tagged: [], classes: [], properties: [], accesses: [], members: [], identifiers: new Map() };
  const visit = (node: ts.Node): void => {
    switch (node.kind) {
      case ts.SyntaxKind.Identifier: {
        const id = node as ts.Identifier;
        const list = built.identifiers.get(id.text);
        if (list) list.push(id);
        else built.identifiers.set(id.text, [id]);
        return;
      }
      case ts.SyntaxKind.NewExpression:
        built.news.push(node as ts.NewExpression);
        break;
      case ts.SyntaxKind.CallExpression:
        built.calls.push(node as ts.CallExpression);
        break;
      case ts.SyntaxKind.TaggedTemplateExpression:
        built.tagged.push(node as ts.TaggedTemplateExpression);
        break;
      case ts.SyntaxKind.ClassDeclaration:
        if ((node as ts.ClassDeclaration).name) built.classes.push(node as ts.ClassDeclaration);
        break;
      case ts.SyntaxKind.PropertyDeclaration:
        built.properties.push(node as ts.PropertyDeclaration);
        break;
      case ts.SyntaxKind.PropertyAccessExpression:
        built.accesses.push(node as ts.PropertyAccessExpression);
        break;
      case ts.SyntaxKind.MethodSignature:
      case ts.SyntaxKind.MethodDeclaration:
      case ts.SyntaxKind.PropertySignature:
        built.members.push(node as ts.MethodSignature);
        break;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  cache.set(sf, built);
  return built;
}
