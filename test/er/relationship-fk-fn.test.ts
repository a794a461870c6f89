/**
 * `fkFn` takes the callback a TypeScript user writes for the field: typed for the field's values
 * (`(code: string) => ...`), which `npm run typecheck` compiles here, or untyped (then `unknown`).
 * Migrated v3 code (`fieldFn: (v: number) => ...`) relies on the typed form (issue 12.5).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildObject, configResolver, DefineSubset, Entity, ErDiagram, model, ref, Relationship } from 'ergraph';

class Country extends model({ code: z.string(), name: z.string() }) {}
class City extends model({ id: z.int(), countryCode: z.string() }) {}

const countries = [new Country({ code: 'FR', name: 'France' }), new Country({ code: 'JP', name: 'Japan' })];
const byCode = async (codes: readonly string[]) => buildObject(countries, codes, (c) => c.code);
const upper = (code: string): string => code.toUpperCase();

const diagram = new ErDiagram({
  entities: [
    new Entity({
      kls: City,
      relationships: [
        new Relationship({ fk: 'countryCode', target: Country, name: 'country', loader: byCode, fkFn: upper }),
        new Relationship({ fk: 'countryCode', target: Country, name: 'countryInline', loader: byCode, fkFn: (code: string) => code.toUpperCase() }),
        new Relationship({ fk: 'countryCode', target: Country, name: 'countryUntyped', loader: byCode, fkFn: (v) => String(v).toUpperCase() }),
      ],
    }),
    new Entity({ kls: Country }),
  ],
});
const R = configResolver('FkFn', diagram);

describe('Relationship fkFn', () => {
  it('accepts callbacks typed for the field and applies them before loading', async () => {
    class CityView extends DefineSubset(City, ['id'], {
      country: ref(() => Country),
      countryInline: ref(() => Country),
      countryUntyped: ref(() => Country),
    }) {}
    const [paris, kyoto] = await new R().resolve([new CityView({ id: 1, countryCode: 'fr' }), new CityView({ id: 2, countryCode: 'jp' })]);
    expect([paris!.country.name, paris!.countryInline.name, paris!.countryUntyped.name]).toEqual(['France', 'France', 'France']);
    expect(kyoto!.country.name).toBe('Japan');
  });
});
