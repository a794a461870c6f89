/**
 * The ER picture as data: what `ergraph er` prints as JSON and what the Mermaid, DOT and SVG
 * renderers draw. Built once from the diagram (plus use-case services, when given); every
 * renderer reads only this, so all pictures show the same graph.
 */
import type { z } from 'zod';
import type { ErDiagram } from '../er/diagram.js';
import { isDescribedEdge, DESCRIBE_EDGE } from '../er/edges.js';
import { isModelClass, modelFields, type AnyModelClass } from '../er/model.js';
import { className } from '../er/names.js';
import { decoratedOperations, type Operation } from '../er/operations.js';
import { describeField, type FieldInfo } from '../er/schema.js';
import { isZodEnum, metaId, scalarFor } from '../graphql/scalars.js';
import { subsetOf } from '../resolver/subset.js';

export const ER_PICTURE_FORMAT = 'ergraph-er/1';

/** `1:N`: one owner, many targets (a list); `N:1`: many owners point at one target. */
export type Cardinality = '1:N' | 'N:1';

export interface ErField {
  name: string;
  /** GraphQL notation: `Int!`, `[Tag!]!`, `String`. */
  type: string;
}

export interface ErOperation {
  name: string;
  kind: 'query' | 'mutation';
  /** The return type, GraphQL notation. */
  returns: string;
  description?: string;
}

export interface ErEntity {
  name: string;
  fields: ErField[];
  queries: ErOperation[];
  mutations: ErOperation[];
}

export interface ErRelationship {
  /** The owning entity. */
  from: string;
  name: string;
  /** The owner's field holding the key. */
  fk: string;
  to: string;
  cardinality: Cardinality;
  description?: string;
}

/** A federation member this graph reaches, with the edges into it. */
export interface ErMember {
  name: string;
  /** Its entities the edges target. */
  entities: string[];
  relationships: Array<ErRelationship & { joinKey: string; paginated: boolean }>;
}

export interface ErServiceOperation extends ErOperation {
  /** The entities its result reads: the returned entity, or the source entity of a returned subset (DTO). */
  reads: string[];
}

export interface ErService {
  name: string;
  operations: ErServiceOperation[];
}

export interface ErPicture {
  format: typeof ER_PICTURE_FORMAT;
  entities: ErEntity[];
  relationships: ErRelationship[];
  services: ErService[];
  members: ErMember[];
}

/** Use-case services: the classes, or a `UseCaseAppConfig` holding them. */
export type PictureServices = readonly Function[] | { readonly services: readonly Function[] };

export interface ErPictureOptions {
  services?: PictureServices;
}

function typeName(info: FieldInfo): string {
  let base: string;
  if (info.model) base = className(info.model());
  else if (isZodEnum(info.base)) base = metaId(info.base) ?? 'Enum';
  else base = scalarFor(info.base)?.name ?? 'JSON';
  if (info.list) base = `[${base}${info.itemNullable ? '' : '!'}]`;
  return info.nullable || info.optional ? base : `${base}!`;
}

function operation(op: Operation): ErOperation {
  return {
    name: op.name,
    kind: op.kind,
    returns: typeName(describeField(op.returns())),
    ...(op.description ? { description: op.description } : {}),
  };
}

/** The entity a returned class reads: itself when it is one, or its subset's source (subsets of subsets followed). */
function readEntity(kls: AnyModelClass, entities: ReadonlyMap<AnyModelClass, string>): string | undefined {
  for (let c: AnyModelClass | undefined = kls, hops = 0; c && hops < 20; hops++) {
    const name = entities.get(c);
    if (name) return name;
    c = subsetOf(c)?.kls as AnyModelClass | undefined;
  }
  return undefined;
}

/** The model class a return type holds (itself, in a list, nullable), if any. */
function returnedModel(schema: z.ZodType): AnyModelClass | undefined {
  return describeField(schema).model?.();
}

const servicesOf = (services: PictureServices | undefined): readonly Function[] =>
  !services ? [] : Array.isArray(services) ? services : (services as { services: readonly Function[] }).services;

/** The picture of a diagram (validated first) and, optionally, of the use-case services over it. */
export function erPicture(diagram: ErDiagram, options: ErPictureOptions = {}): ErPicture {
  const infos = diagram.entityInfos();
  const names = new Map<AnyModelClass, string>([...infos].map(([kls, info]) => [kls, info.name]));
  const entities: ErEntity[] = [];
  const relationships: ErRelationship[] = [];
  const members = new Map<string, ErMember>();

  for (const entity of diagram.entities) {
    const info = infos.get(entity.kls)!;
    entities.push({
      name: info.name,
      fields: modelFields(entity.kls).map((f) => ({ name: f.key, type: typeName(f.info) })),
      queries: info.queries.map(operation),
      mutations: info.mutations.map(operation),
    });
    for (const rel of info.relationships.values()) {
      relationships.push({
        from: info.name,
        name: rel.relationship.name,
        fk: rel.relationship.fk,
        to: names.get(rel.target)!,
        cardinality: rel.list ? '1:N' : 'N:1',
        ...(rel.relationship.description ? { description: rel.relationship.description } : {}),
      });
    }
    for (const edge of entity.relationships) {
      if (!isDescribedEdge(edge)) continue;
      const d = edge[DESCRIBE_EDGE]();
      let member = members.get(d.service);
      if (!member) members.set(d.service, (member = { name: d.service, entities: [], relationships: [] }));
      if (!member.entities.includes(d.target)) member.entities.push(d.target);
      member.relationships.push({
        from: info.name,
        name: d.name,
        fk: d.fk,
        to: d.target,
        cardinality: d.list ? '1:N' : 'N:1',
        joinKey: d.joinKey,
        paginated: d.paginated,
        ...(d.description ? { description: d.description } : {}),
      });
    }
  }

  const services: ErService[] = servicesOf(options.services).map((service) => ({
    name: className(service, 'use-case service'),
    operations: decoratedOperations(service).map((op) => {
      const returned = returnedModel(op.returns());
      const read = returned && isModelClass(returned) ? readEntity(returned, names) : undefined;
      return { ...operation(op), reads: read ? [read] : [] };
    }),
  }));

  return { format: ER_PICTURE_FORMAT, entities, relationships, services, members: [...members.values()] };
}
