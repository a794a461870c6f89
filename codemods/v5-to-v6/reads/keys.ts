/**
 * What a computed key (`data[key]`, `key in data`) can be, read from the code without types: a
 * literal, a constant holding one, a conditional between them, a parameter or variable typed with
 * literal types (`key: 'userGetAll' | 'taskGetAll'`, or an alias of such a union declared in the
 * file), a `for…of` over a literal array. Anything else — a `string`, a value computed at run
 * time, a name assigned again — is unknown, and the read that uses it is marked.
 */
import { ts } from '../../lib/parse.js';
import { writtenKey } from './patterns.js';
import { declarationFor, referencesOf } from './scope.js';

/** How deep through constants and aliases the pass looks: a key is rarely more than one or two names away. */
const DEPTH = 5;

const unwrap = (e: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e) ? unwrap(e.expression) : e;

const ASSIGNMENTS = new Set([ts.SyntaxKind.EqualsToken, ts.SyntaxKind.PlusEqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken, ts.SyntaxKind.AmpersandAmpersandEqualsToken]);

/** Is this reference one the variable is given a new value through? */
function assigned(ref: ts.Identifier): boolean {
  const p = ref.parent;
  if (ts.isBinaryExpression(p) && p.left === ref && ASSIGNMENTS.has(p.operatorToken.kind)) return true;
  return (ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken);
}

/** Every value of each part, or undefined when one part is unknown. */
function union(parts: readonly (readonly string[] | undefined)[]): readonly string[] | undefined {
  if (parts.some((p) => p === undefined)) return undefined;
  return [...new Set(parts.flatMap((p) => p!))];
}

/** The keys a written type allows: literal types, their unions, an alias of the file naming them. */
function keysOfType(type: ts.TypeNode, depth: number): readonly string[] | undefined {
  if (depth > DEPTH) return undefined;
  if (ts.isParenthesizedTypeNode(type)) return keysOfType(type.type, depth);
  if (ts.isLiteralTypeNode(type)) {
    const literal = type.literal;
    return ts.isStringLiteral(literal) || ts.isNumericLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal) ? [literal.text] : undefined;
  }
  if (ts.isUnionTypeNode(type)) return union(type.types.map((t) => keysOfType(t, depth + 1)));
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && !type.typeArguments) {
    const name = type.typeName.text;
    const alias = type.getSourceFile().statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name && !s.typeParameters);
    return alias ? keysOfType(alias.type, depth + 1) : undefined;
  }
  return undefined;
}

/** The keys an array's elements can be (`['userGetAll', 'taskGetAll'] as const`, or a constant holding it). */
function elementKeys(expr: ts.Expression, depth: number): readonly string[] | undefined {
  const e = unwrap(expr);
  if (ts.isArrayLiteralExpression(e)) return e.elements.some(ts.isSpreadElement) ? undefined : union(e.elements.map((el) => keysOf(el, depth + 1)));
  if (!ts.isIdentifier(e) || depth > DEPTH) return undefined;
  const decl = constantOf(e);
  return decl?.initializer ? elementKeys(decl.initializer, depth + 1) : undefined;
}

/** The declaration of a name never given another value, when it is a variable's. */
function constantOf(ref: ts.Identifier): ts.VariableDeclaration | undefined {
  const name = declarationFor(ref);
  const refs = name && referencesOf(name);
  if (!name || !refs || refs.some(assigned)) return undefined;
  return ts.isVariableDeclaration(name.parent) && name.parent.name === name ? name.parent : undefined;
}

/** The values `expr` can have as a key, or undefined when the pass cannot tell them all. */
export function keysOf(expr: ts.Expression, depth = 0): readonly string[] | undefined {
  if (depth > DEPTH) return undefined;
  const e = unwrap(expr);
  const literal = writtenKey(e);
  if (literal !== undefined) return [literal];
  if (ts.isConditionalExpression(e)) return union([keysOf(e.whenTrue, depth + 1), keysOf(e.whenFalse, depth + 1)]);
  if (!ts.isIdentifier(e)) return undefined;
  const name = declarationFor(e);
  const refs = name && referencesOf(name);
  if (!name || !refs || refs.some(assigned)) return undefined;
  const decl = name.parent;
  if (ts.isParameter(decl) && decl.name === name) return decl.type ? keysOfType(decl.type, depth + 1) : undefined;
  if (!ts.isVariableDeclaration(decl) || decl.name !== name) return undefined;
  if (decl.type) return keysOfType(decl.type, depth + 1);
  const loop = decl.parent.parent;
  if (ts.isForOfStatement(loop) && loop.initializer === decl.parent) return elementKeys(loop.expression, depth + 1);
  return decl.initializer ? keysOf(decl.initializer, depth + 1) : undefined;
}
