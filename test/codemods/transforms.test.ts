/** Properties every transform must have beyond its fixtures: byte-identity, parse errors, no-ops. */
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { applyToFiles, applyTransform } from '../../codemods/apply.js';
import { transforms } from '../../codemods/registry.js';
import { ParseError } from '../../codemods/types.js';

const QUIRKY = [
  '#!/usr/bin/env node',
  '/** Licence header with tabs\t and unicode ✓ */',
  "import {Relationship} from \"ergraph\"",
  '',
  '',
  'const   spaced   =   1 ;  // trailing comment',
  'export class Task {',
  '\tstatic __relationships__ = [',
  "\t\tnew Relationship({field: 'ownerId', targetKls: Task, defaultFieldName: \"owner\", loader: (k: readonly number[]) => k.map(() => null)}) /* kept */,",
  '\t]',
  '}',
  '',
].join('\r\n');

/** v5-to-v6 needs a v6 schema; the others ignore it. */
const OPTIONS = { schema: buildSchema('type UserQuery { getAll: [Int!]! } type Query { User: UserQuery! }') };

describe('every transform', () => {
  for (const transform of transforms) {
    describe(transform.name, () => {
      it('returns the very input when there is nothing to migrate', () => {
        const source = "import { Relationship } from 'ergraph';\n// nothing old here\nexport const x = 1;\n";
        const result = applyTransform(transform, source, 'plain.ts', OPTIONS);
        expect(result.output).toBe(source);
        expect(result.manual).toEqual([]);
      });

      it('throws ParseError on a file that does not parse, and the runner leaves it as is', () => {
        const broken = "import { Relationship } from 'ergraph';\nnew Relationship({ field: 'id', \n";
        expect(() => applyTransform(transform, broken, 'broken.ts', OPTIONS)).toThrow(ParseError);
        const outcome = applyToFiles(transform, new Map([['broken.ts', broken]]), OPTIONS).get('broken.ts');
        expect(outcome?.error).toBeInstanceOf(ParseError);
        expect(outcome?.error?.message).toMatch(/^broken\.ts:\d+:\d+: /);
        expect(outcome?.result).toBeUndefined();
      });
    });
  }
});

describe('v3-to-v4 text edits', () => {
  const v3 = transforms.find((t) => t.name === 'v3-to-v4');
  it('changes only the migrated keys, keeping CRLF, tabs, quotes and comments byte for byte', () => {
    const result = applyTransform(v3!, QUIRKY, 'quirky.ts');
    const expected = QUIRKY.replace("field: 'ownerId'", "fk: 'ownerId'")
      .replace('targetKls: Task', 'target: Task')
      .replace('defaultFieldName: "owner"', 'name: "owner"');
    expect(result.output).toBe(expected);
  });

  it('puts a derived name on its own line in a multi-line object and reports it as a note', () => {
    const source = [
      "import { Relationship } from 'ergraph';",
      'export const rels = [',
      '  new Relationship({',
      "    field: 'reviewerId',",
      '    targetKls: User,',
      '    loader: usersById,',
      '  }),',
      '];',
      '',
    ].join('\n');
    const result = applyTransform(v3!, source, 'multi.ts');
    expect(result.output).toBe(source.replace("field: 'reviewerId'", "fk: 'reviewerId'").replace('    targetKls: User,', "    target: User,\n    name: 'reviewer',"));
    expect(result.notes).toEqual(["multi.ts:3: Relationship name 'reviewer' derived (v3 had no defaultFieldName); check it"]);
  });

  it('does not duplicate TODO markers on a second run', () => {
    const source = "import { Relationship } from 'ergraph';\nexport const r = new Relationship({ ...opts });\n";
    const once = applyTransform(v3!, source, 'spread.ts');
    const twice = applyTransform(v3!, once.output, 'spread.ts');
    expect(once.output.match(/TODO\(ergraph-migrate\)/g)).toHaveLength(1);
    expect(twice.output).toBe(once.output);
    expect(twice.manual).toHaveLength(1);
    expect(once.manual[0]).toEqual({ line: 2, column: 18, reason: 'Relationship: spread options cannot be migrated safely' });
  });

  it('leaves identifiers that merely share an old name alone when they are not ergraph imports', () => {
    const source = "import { Relationship } from './local';\nnew Relationship({ field: 'x' });\nconst LoaderDepend = 1;\n";
    expect(applyTransform(v3!, source, 'local.ts').output).toBe(source);
  });
});

describe('TODO markers', () => {
  const v4 = transforms.find((t) => t.name === 'v4-to-v5');
  it('go above a template literal or JSX rather than inside it', () => {
    const source = [
      "import { ErDiagram } from 'ergraph';",
      'export const doc = `first line ${',
      '  new ErDiagram({ ...opts })',
      '}`;',
      'export const el = (',
      '  <div>',
      '    {new ErDiagram(options)}',
      '  </div>',
      ');',
      '',
    ].join('\n');
    const result = applyTransform(v4!, source, 'view.tsx');
    expect(result.output).toBe(
      [
        "import { ErDiagram } from 'ergraph';",
        '// TODO(ergraph-migrate): ErDiagram: spread options cannot be migrated safely (configs → entities)',
        'export const doc = `first line ${',
        '  new ErDiagram({ ...opts })',
        '}`;',
        'export const el = (',
        '  // TODO(ergraph-migrate): ErDiagram options are not an object literal: rename configs to entities',
        '  <div>',
        '    {new ErDiagram(options)}',
        '  </div>',
        ');',
        '',
      ].join('\n'),
    );
    expect(result.manual.map((m) => m.line)).toEqual([3, 7]);
  });
});
