/**
 * A file of many documents (issue 45.2): placing the TODO markers of a file, or finding each
 * exported document's declaration, must not walk the whole file once per document. Counted, not
 * timed: the reads of the file's statement list, at two sizes, while `fileChanges().result()`
 * places one marker per statement. A walk per marker reads
 * every statement per marker (4x the reads for 2x the statements); a search by halves reads a few.
 * bench/many-documents.ts times a whole run.
 */
import { expect, it } from 'vitest';
import { fileChanges } from '../../codemods/lib/changes.js';
import { parseSource, type ts } from '../../codemods/lib/parse.js';
import { declarationOf } from '../../codemods/v5-to-v6/reads/declarations.js';

/** A file of `count` tagged documents, each a statement; its statement list counts index reads. */
function counted(count: number): { sf: ts.SourceFile; reads: () => number } {
  let text = "import { gql } from '@apollo/client';\n";
  for (let i = 0; i < count; i++) text += `export const Q${i} = gql\`query Q${i} { userGetAll { id } }\`;\n`;
  const sf = parseSource(text, 'ops.ts');
  let reads = 0;
  const list = new Proxy(sf.statements, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  Object.defineProperty(sf, 'statements', { value: list });
  return { sf, reads: () => reads };
}

/** The statement reads of marking every document of a file of `count`, and the markers placed. */
function markEvery(count: number): { reads: number; markers: number } {
  const { sf, reads } = counted(count);
  const ch = fileChanges(sf);
  for (const statement of sf.statements.slice(1)) ch.manual(statement, 'move its reads');
  const before = reads();
  const { output, manual } = ch.result();
  expect(manual).toHaveLength(count);
  return { reads: reads() - before, markers: output.split('// TODO(ergraph-migrate): move its reads').length - 1 };
}

it('places the markers of a file of many documents with a search per marker, not a walk of the file', () => {
  const small = markEvery(500);
  const large = markEvery(1000);
  expect(small.markers).toBe(500);
  expect(large.markers).toBe(1000);
  // Linear in markers up to a log factor: twice the documents, about twice the reads (a walk of
  // the file per marker: four times, and 1,000 reads per marker).
  expect(large.reads / small.reads).toBeLessThan(2.6);
  expect(large.reads / 1000).toBeLessThan(40);
});

it("finds each exported document's declaration in one index of the file, not a walk of the file per document", () => {
  // The read-site pass asks for it once per exported document: a walk per question made a file of
  // 32,000 documents spend 84 of its 99 s there (issue 45.2).
  const reads = (count: number) => {
    const { sf, reads } = counted(count);
    for (let i = 0; i < count; i++) expect(declarationOf(sf, `Q${i}`)?.id.text).toBe(`Q${i}`);
    expect(declarationOf(sf, 'missing')).toBeUndefined();
    return reads();
  };
  const small = reads(500);
  const large = reads(1000);
  expect(large / small).toBeLessThan(2.6);
  expect(large / 1000).toBeLessThan(3);
});
