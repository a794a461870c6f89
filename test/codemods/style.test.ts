/**
 * Style fidelity (issue 26): comments stay with the code they describe when a construct is split,
 * the project's own import paths and aliases are kept, and every inserted or rewritten line
 * follows the file's quote and semicolon style (or the project's Prettier/EditorConfig).
 */
import { describe, expect, it } from 'vitest';
import { applyTransform } from '../../codemods/apply.js';
import { transforms } from '../../codemods/registry.js';

const step = (name: string) => transforms.find((t) => t.name === name)!;

describe('splitting a MultipleRelationship', () => {
  const source = `import { MultipleRelationship, Link } from 'ergraph';
export class User {
  static __ergraph_relationships__ = [
    /** The user's tasks. */
    new MultipleRelationship({
      field: 'id', // the user's key
      targetKls: [Task],
      links: [
        /**
         * Tasks the user owns.
         */
        new Link({ biz: 'owned', loader: owned }),
        // Tasks the user reviews.
        new Link({ biz: 'reviewed', /* pending too */ loader: reviewed }), // reviewer
      ],
    }),
  ];
}
`;
  const output = applyTransform(step('v3-to-v4'), source).output;
  const lines = output.split('\n').map((l) => l.trim());
  const at = (text: string) => lines.findIndex((l) => l.includes(text));

  it("puts each link's comments above that link's relationship", () => {
    const owned = at("name: 'owned'");
    const reviewed = at("name: 'reviewed'");
    expect(owned).toBeGreaterThan(0);
    expect(at('Tasks the user owns.')).toBeLessThan(owned);
    for (const comment of ['// Tasks the user reviews.', '/* pending too */', '// reviewer']) {
      expect(at(comment), comment).toBeGreaterThan(owned);
      expect(at(comment), comment).toBeLessThan(reviewed);
    }
  });

  it("keeps the MultipleRelationship's own comments above the first part", () => {
    const owned = at("name: 'owned'");
    expect(at("/** The user's tasks. */")).toBeLessThan(owned);
    expect(at("// the user's key")).toBeLessThan(at('Tasks the user owns.'));
  });

  it('lines a moved JSDoc block up under its new first line', () => {
    expect(output).toContain('    /**\n     * Tasks the user owns.\n     */\n    new Relationship(');
  });
});
