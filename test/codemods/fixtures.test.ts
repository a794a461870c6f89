/**
 * Every fixture case of every transform: output equals the expected tree, a second run changes
 * nothing, comments survive, the output parses, and the TODO markers match the manual list.
 */
import { describe, expect, it } from 'vitest';
import { applyToFiles } from '../../codemods/apply.js';
import { parseSource } from '../../codemods/lib/parse.js';
import { transforms } from '../../codemods/registry.js';
import { comments, fixtureCases } from './helpers.js';

const FIXTURE_TRANSFORMS = ['v3-to-v4', 'v4-to-v5', 'v5.4-to-v5.5', 'federation-config'];

for (const name of FIXTURE_TRANSFORMS) {
  const transform = transforms.find((t) => t.name === name);
  describe(`${name} fixtures`, () => {
    it('is registered', () => {
      expect(transform?.name).toBe(name);
    });
    if (!transform) return;
    for (const fixture of fixtureCases(name)) {
      describe(fixture.name, () => {
        const first = applyToFiles(transform, fixture.input);
        it('produces the expected files', () => {
          expect([...first.keys()].sort()).toEqual([...fixture.expected.keys()].sort());
          for (const [file, outcome] of first) {
            expect(outcome.error).toBeUndefined();
            expect(outcome.result?.output, file).toBe(fixture.expected.get(file));
          }
        });
        it('is idempotent', () => {
          const second = applyToFiles(transform, fixture.expected);
          for (const [file, outcome] of second) {
            expect(outcome.result?.output, file).toBe(fixture.expected.get(file));
            expect(outcome.result?.notes, file).toEqual([]);
          }
        });
        it('keeps every comment and produces parsable output', () => {
          for (const [file, input] of fixture.input) {
            const output = fixture.expected.get(file) ?? '';
            expect(() => parseSource(output, file)).not.toThrow();
            const kept = comments(output);
            for (const comment of comments(input)) expect(kept, `${file}: ${comment}`).toContain(comment);
          }
        });
        it('marks exactly the manual places it reports', () => {
          for (const [file, outcome] of first) {
            const markers = (outcome.result?.output.match(/\/\/ TODO\(ergraph-migrate\): .*/g) ?? []).map((m) =>
              m.slice('// TODO(ergraph-migrate): '.length),
            );
            const reasons = outcome.result?.manual.map((m) => m.reason) ?? [];
            expect(new Set(markers), file).toEqual(new Set(reasons));
          }
        });
      });
    }
  });
}
