import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createUsageRecorder, deprecatedCoordinates, deprecatedFields, memoryUsageStore, retirementReport } from 'ergraph/compat';

const schema = buildSchema(`
  type Query { User: UserQuery! }
  type UserQuery { getAll(limit: Int, first: Int @deprecated(reason: "use limit")): [User!]! byName(name: String!): User @deprecated(reason: "use User.search") }
  type User { id: Int! fullName: String @deprecated(reason: "use name") name: String! }
`);

describe('deprecated v6 coordinates in the usage store', () => {
  it('finds the deprecated fields and arguments a document selects, through fragments too', () => {
    const document = parse(`
      query { User { getAll(first: 2) { ...U } byName(name: "a") { id } } }
      fragment U on User { id fullName name }
    `);
    expect(deprecatedCoordinates(schema, document).sort()).toEqual(['User.fullName', 'UserQuery.byName', 'UserQuery.getAll.first']);
    expect(deprecatedCoordinates(schema, document)).toBe(deprecatedCoordinates(schema, document)); // cached per document
    expect(deprecatedCoordinates(schema, parse('{ User { getAll { id name } } }'))).toEqual([]);
  });

  it('plugs into the same recorder and report as v5 fields: the one-line hook', async () => {
    const store = memoryUsageStore();
    const usage = createUsageRecorder(store);
    usage.track(deprecatedFields(schema));
    const document = parse('{ User { getAll { fullName } } }');
    usage.record(deprecatedCoordinates(schema, document), 'web');
    await usage.close();
    const report = await retirementReport(store);
    expect(report.fields.map((f) => [f.coordinate, f.replacement, f.count])).toEqual([
      ['User.fullName', 'use name', 1],
      ['UserQuery.byName', 'use User.search', 0],
    ]);
  });
});
