/**
 * A rewritten document checked against the v6 schema before it is kept. The rewrite moves root
 * fields into their groups and keeps everything else as written, so a v5 argument or field the v6
 * method no longer has (`getAll(status: OPEN)` when v6 `getAll` has no `status`) would otherwise
 * be written as a document the server refuses. Such a document stays as it was, with a TODO.
 */
import {
  FieldsOnCorrectTypeRule,
  GraphQLError,
  KnownArgumentNamesRule,
  KnownTypeNamesRule,
  OverlappingFieldsCanBeMergedRule,
  parse,
  ProvidedRequiredArgumentsRule,
  ScalarLeafsRule,
  validate,
  ValuesOfCorrectTypeRule,
  VariablesInAllowedPositionRule,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { applyEdits, type Edit } from '../lib/edits.js';
import type { DocumentRewrite } from './document.js';
import { parseableText } from './embedded.js';

/**
 * The rules that judge the document on its own. Those about fragments and variables declared
 * elsewhere (`KnownFragmentNames`, `NoUndefinedVariables`, `NoUnusedFragments`) are left out: a
 * `.graphql` file or a template may use fragments of another file, which is not a fault.
 */
const RULES = [
  FieldsOnCorrectTypeRule,
  KnownArgumentNamesRule,
  KnownTypeNamesRule,
  ProvidedRequiredArgumentsRule,
  ValuesOfCorrectTypeRule,
  ScalarLeafsRule,
  OverlappingFieldsCanBeMergedRule,
  VariablesInAllowedPositionRule,
];

export interface InvalidRewrite {
  /** Offset, in the text as it was, of the definition the problem is in. */
  offset: number;
  reason: string;
}

/** `${...}` spans of a template's text, found again after the rewrite moved them. */
function holesOf(raw: string): Array<readonly [number, number]> {
  const holes: Array<readonly [number, number]> = [];
  for (let i = raw.indexOf('${'); i >= 0; i = raw.indexOf('${', i + 1)) {
    let depth = 0;
    let j = i + 1;
    for (; j < raw.length; j++) {
      if (raw[j] === '{') depth++;
      else if (raw[j] === '}' && --depth === 0) break;
    }
    holes.push([i, j + 1]);
    i = j;
  }
  return holes;
}

/** Where an offset of the rewritten text was before the edits; undefined inside new text. */
function originalOffset(edits: readonly Edit[]): (offset: number) => number | undefined {
  const ordered = [...edits].sort((a, b) => a.start - b.start);
  return (offset) => {
    let delta = 0;
    for (const e of ordered) {
      const start = e.start + delta;
      if (offset < start) break;
      if (offset < start + e.text.length) return undefined;
      delta += e.text.length - (e.end - e.start);
    }
    return offset - delta;
  };
}

function parsed(text: string, template: boolean): { document: DocumentNode; holes: Array<readonly [number, number]> } | undefined {
  if (!template) return { document: parse(text), holes: [] };
  const doc = { raw: text, holes: holesOf(text) };
  for (const asNames of [false, true]) {
    try {
      return { document: parse(parseableText(doc as Parameters<typeof parseableText>[0], asNames)), holes: doc.holes };
    } catch {
      // the interpolations may stand for names: tried next
    }
  }
  return undefined;
}

/**
 * What is wrong with `after` (the rewritten text of `before`) for `schema`; empty when it
 * validates. `template`: the text is a template's, with `${...}` interpolations, whose stand-ins
 * are never counted as problems.
 */
export function invalidAfterRewrite(before: DocumentNode, text: string, rewrite: DocumentRewrite, schema: GraphQLSchema, template = false): InvalidRewrite[] {
  const after = applyEdits(text, rewrite.edits);
  const original = originalOffset(rewrite.edits);
  // Fields the rewrite already reported (an unknown flat name) are marked where they are.
  const reported = new Set(rewrite.problems.map((p) => p.offset));
  let result: ReturnType<typeof parsed>;
  try {
    result = parsed(after, template);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return [{ offset: before.definitions[0]?.loc?.start ?? 0, reason: `the rewritten document does not parse (${error.message}): left as it was; migrate it by hand` }];
  }
  if (!result) return [];
  const { document, holes } = result;
  const inHole = (offset: number) => holes.some(([s, e]) => offset >= s && offset < e);
  const out: InvalidRewrite[] = [];
  for (const error of validate(schema, document, RULES)) {
    const at = error.nodes?.[0]?.loc?.start;
    if (at === undefined || inHole(at)) continue;
    if (error.nodes!.some((n) => n.loc && reported.has(original(n.loc.start) ?? -1))) continue;
    // The rewrite keeps the definitions and their order: the n-th after is the n-th before.
    const index = document.definitions.findIndex((d) => d.loc && at >= d.loc.start && at < d.loc.end);
    const offset = before.definitions[index]?.loc?.start ?? before.definitions[0]?.loc?.start ?? 0;
    const reason = `the rewritten document would not validate against the v6 schema (${error.message.replace(/\.$/, '')}): left as it was; migrate it by hand`;
    if (!out.some((o) => o.offset === offset && o.reason === reason)) out.push({ offset, reason });
  }
  return out;
}
