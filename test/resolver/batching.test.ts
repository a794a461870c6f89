// The batching guarantee: for a tree several relationship levels deep with hundreds of parents
// per level, each relationship's loader is called exactly once per level.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseEntity, buildList, buildObject, configResolver, DefineSubset, model, ref, Relationship } from 'ergraph';

const ORGS = 300;
const orgs = Array.from({ length: ORGS }, (_, i) => ({ id: i, name: `org${i}`, ceoId: i % 7 === 0 ? null : i * 10 }));
const people = Array.from({ length: ORGS * 10 }, (_, i) => ({ id: i, orgId: Math.floor(i / 10), managerId: i % 3 === 0 ? null : i - 1 }));
const projects = Array.from({ length: ORGS * 4 }, (_, i) => ({ id: i, orgId: Math.floor(i / 4), leadId: (i * 7) % people.length }));

const calls: Record<string, number[]> = {};
function counted<K, V>(name: string, fn: (keys: readonly K[]) => V[]) {
  const loader = async (keys: readonly K[]) => {
    (calls[name] ??= []).push(keys.length);
    return fn(keys);
  };
  Object.defineProperty(loader, 'name', { value: name });
  return loader;
}

const personById = counted('personById', (keys: readonly number[]) => buildObject(people.map((p) => new Person(p)), keys, (p) => p.id));
const peopleByOrg = counted('peopleByOrg', (keys: readonly number[]) => buildList(people.map((p) => new Person(p)), keys, (p) => p.orgId));
const projectsByOrg = counted('projectsByOrg', (keys: readonly number[]) => buildList(projects.map((p) => new Project(p)), keys, (p) => p.orgId));
const orgById = counted('orgById', (keys: readonly number[]) => buildObject(orgs.map((o) => new Org(o)), keys, (o) => o.id));

const Base = baseEntity();
class Org extends model({ id: z.int(), name: z.string(), ceoId: z.int().nullable() }) {
  static __relationships__ = [
    new Relationship({ fk: 'ceoId', target: () => Person, name: 'ceo', loader: personById }),
    new Relationship({ fk: 'id', target: () => [Person], name: 'people', loader: peopleByOrg }),
    new Relationship({ fk: 'id', target: () => [Project], name: 'projects', loader: projectsByOrg }),
  ];
}
class Person extends model({ id: z.int(), orgId: z.int(), managerId: z.int().nullable() }) {
  static __relationships__ = [
    new Relationship({ fk: 'managerId', target: () => Person, name: 'manager', loader: personById }),
    new Relationship({ fk: 'orgId', target: () => Org, name: 'org', loader: orgById }),
  ];
}
class Project extends model({ id: z.int(), orgId: z.int(), leadId: z.int() }) {
  static __relationships__ = [new Relationship({ fk: 'leadId', target: () => Person, name: 'lead', loader: personById })];
}
Base.entity(Org);
Base.entity(Person);
Base.entity(Project);
const OrgResolver = configResolver('OrgResolver', Base.getDiagram());

// Level 3 is reached through a list (people) and a single object (ceo), and mixes with null FKs.
class OrgRef extends DefineSubset(Org, ['id', 'name']) {}
class ManagerView extends DefineSubset(Person, ['id'], { org: ref(() => OrgRef).nullable() }) {}
class PersonView extends DefineSubset(Person, ['id'], {
  manager: ref(() => ManagerView).nullable(),
}) {}
class ProjectView extends DefineSubset(Project, ['id'], { lead: ref(() => PersonView).nullable() }) {}
class OrgView extends DefineSubset(Org, ['id', 'name'], {
  ceo: ref(() => PersonView).nullable(),
  people: z.array(ref(() => PersonView)),
  projects: z.array(ref(() => ProjectView)),
}) {}

describe('batching', () => {
  it('calls each relationship loader once per level, however many parents', async () => {
    for (const k of Object.keys(calls)) delete calls[k];
    const views = await new OrgResolver().resolve(orgs.map((o) => new OrgView(o)));

    // level 1: ceo, people, projects; level 2: manager (of ceo and people) and lead (of
    // projects) share personById in one call; level 3: manager.org via orgById, and
    // lead.manager via personById, whose keys the run's DataLoader already holds (no call).
    expect(calls.peopleByOrg).toEqual([ORGS]);
    expect(calls.projectsByOrg).toEqual([ORGS]);
    const withCeo = orgs.filter((o) => o.ceoId !== null).length;
    expect(withCeo).toBe(257);
    // level 2: the 2,400 distinct managers (of ceos and people) and project leads, less the 197
    // of them that level 1 already loaded as ceos
    expect(calls.personById).toEqual([withCeo, 2203]);
    // level 3: the orgs of those managers, all 300 of them
    expect(calls.orgById).toEqual([ORGS]);

    const org7 = views[7]!;
    expect(org7.ceo).toBeNull(); // null FK: no load, null value
    const org1 = views[1]!;
    expect(org1.ceo!.id).toBe(10);
    expect(org1.people.map((p) => p.id)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(org1.people[0]!.manager!.id).toBe(9);
    expect(org1.people[2]!.manager).toBeNull(); // person 12 has no manager: null FK, no load
    const p11 = org1.people[1]!;
    expect(p11.manager!.id).toBe(10);
    expect(p11.manager!.org).toEqual(expect.objectContaining({ id: 1, name: 'org1' }));
    expect(org1.projects.map((p) => [p.id, p.lead!.id])).toEqual([
      [4, 28],
      [5, 35],
      [6, 42],
      [7, 49],
    ]);
  });

  it('keeps batching when branches have different shapes at the same depth', async () => {
    for (const k of Object.keys(calls)) delete calls[k];
    const mixed = [...orgs.slice(0, 50).map((o) => new OrgView(o)), ...people.slice(0, 200).map((p) => new PersonView(p))];
    await new OrgResolver().resolve(mixed);
    // level 1: OrgView.ceo and PersonView.manager share personById: one call for both.
    // 42 ceos of the 50 orgs and the 133 managers of the 200 people, 12 of them both
    expect(calls.personById![0]).toBe(163);
    expect(calls.peopleByOrg).toEqual([50]);
    // and one call per level after that: three levels of people, three of orgs
    expect(calls.personById).toEqual([163, 336, 85]);
    expect(calls.orgById).toEqual([20, 30, 71]);
  });
});
