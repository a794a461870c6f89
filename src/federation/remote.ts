/**
 * Mounter declarations (spec 2.7): `RemoteService` handles whose attributes are remote type
 * markers, and `RemoteRelationship` edges to them. A marker is not a class: it names one that
 * `federate()` materializes from the member's introspection.
 */
import { DESCRIBE_EDGE, type DescribedEdge, type ForeignEdge } from '../er/edges.js';
import { MATERIALIZE } from '../er/schema.js';
import type { AnyModelClass } from '../er/model.js';
import { FederationError } from './errors.js';

const MARKER: unique symbol = Symbol('ergraph.remoteType');

export interface RemoteTypeInfo {
  readonly service: string;
  readonly name: string;
  readonly handle: RemoteService;
}

/**
 * `reviews.Review`: typed as a model class so it fits `ref(() => reviews.ReviewDTO)` and
 * `target: [reviews.Review]`; it resolves to the materialized class once federated.
 */
export type RemoteType = AnyModelClass & { readonly [MARKER]: RemoteTypeInfo };

export function remoteTypeInfo(value: unknown): RemoteTypeInfo | undefined {
  return (value as { [MARKER]?: RemoteTypeInfo } | null | undefined)?.[MARKER];
}

/** What a handle knows; kept off the handle so every string attribute can be a type marker. */
export class RemoteServiceState {
  /** Materialized classes by bare name, filled by `federate()` (DTO federation reads them). */
  private readonly classes = new Map<string, AnyModelClass>();
  private readonly markers = new Map<string, RemoteType>();

  constructor(
    readonly serviceName: string,
    readonly handle: RemoteService,
  ) {}

  /** The marker for `<service>.<name>`; one object per name so identity comparisons work. */
  marker(name: string): RemoteType {
    let marker = this.markers.get(name);
    if (!marker) {
      const info: RemoteTypeInfo = { service: this.serviceName, name, handle: this.handle };
      marker = Object.freeze({
        [MARKER]: info,
        [MATERIALIZE]: () => {
          if (probing) {
            probing.add(this);
            throw PROBED;
          }
          return this.materialized(name);
        },
        toString: () => `${this.serviceName}.${name}`,
      }) as unknown as RemoteType;
      this.markers.set(name, marker);
    }
    return marker;
  }

  /** The class `federate()` built for `name`, or a clear error when it has not run (or has no such DTO). */
  materialized(name: string): AnyModelClass {
    const kls = this.classes.get(name);
    if (kls) return kls;
    if (!this.classes.size) {
      throw new FederationError(
        `${this.serviceName}.${name} is a remote type of service '${this.serviceName}': call await handler.federate({ services }) before using it`,
      );
    }
    throw new FederationError(
      `Service '${this.serviceName}' publishes no DTO named ${name} (published: ${[...this.classes.keys()].join(', ')})`,
    );
  }

  /** Called by `federate()` with the DTO classes built from the member's dto-introspection. */
  bind(classes: ReadonlyMap<string, AnyModelClass>): void {
    this.classes.clear();
    for (const [name, kls] of classes) this.classes.set(name, kls);
  }
}

/*
 * There is no registry of handles: `federate()` binds only the handles its own diagram (and
 * its `dtos` option) reaches, so two mounters in one process that both declare
 * `new RemoteService('reviews')` against different members keep their own DTO classes, and a
 * handle nobody references can be collected.
 */
const states = new WeakMap<RemoteService, RemoteServiceState>();

/** The state behind a handle (`rel.remote.handle`). */
export function stateOfHandle(handle: RemoteService): RemoteServiceState | undefined {
  return states.get(handle);
}

const PROBED: unique symbol = Symbol('ergraph.remoteProbe');
let probing: Set<RemoteServiceState> | undefined;

/**
 * Follow a `ref` thunk without materializing: a remote marker reports its handle instead of
 * demanding `federate()` to have run. `ref` only hands out a materializing thunk, so the
 * marker's own hook is where the handle can be seen. Returns the local class the thunk names,
 * if any.
 */
export function probeRef(thunk: () => AnyModelClass, found: Set<RemoteServiceState>): AnyModelClass | undefined {
  const outer = probing;
  probing = found;
  try {
    return thunk();
  } catch {
    // PROBED (the handle is in `found`), or a broken thunk, which is reported where it is used.
    return undefined;
  } finally {
    probing = outer;
  }
}

/** `new RemoteService('reviews')`: every attribute (`reviews.Review`) is a remote type marker. */
export interface RemoteService {
  readonly [type: string]: RemoteType;
}

export const RemoteService = function RemoteService(this: unknown, serviceName: string): RemoteService {
  if (!new.target) throw new FederationError("RemoteService is a class: write new RemoteService('reviews')");
  if (typeof serviceName !== 'string' || !/^[A-Za-z][A-Za-z0-9_-]*$/.test(serviceName)) {
    throw new FederationError(`RemoteService needs a service name (letters, digits, _ or -), got ${JSON.stringify(serviceName)}`);
  }
  let state!: RemoteServiceState;
  const handle = new Proxy(Object.create(RemoteService.prototype) as object, {
    get: (target, prop, receiver) => {
      // `then` stays undefined so a handle is never mistaken for a promise.
      if (typeof prop !== 'string' || prop === 'then' || prop === 'constructor') return Reflect.get(target, prop, receiver);
      return state.marker(prop);
    },
  }) as RemoteService;
  state = new RemoteServiceState(serviceName, handle);
  states.set(handle, state);
  return handle;
} as unknown as new (serviceName: string) => RemoteService;

export interface RemoteRelationshipOptions {
  /** Field of this entity holding the value matched against `joinRemote`. */
  fk: string;
  /** `reviews.Review` (many-to-one) or `[reviews.Review]` (one-to-many). */
  target: RemoteType | readonly [RemoteType];
  /** The GraphQL field name on this entity. */
  name: string;
  /** The member entity's federation key the fk value is matched against. */
  joinRemote: string;
  /** Page through the member's `page_by_<key>_in` (list targets only). */
  pagination?: boolean;
  description?: string;
}

/** An edge to an entity of another service; lives in `__relationships__` next to local ones. */
export class RemoteRelationship implements DescribedEdge {
  readonly fk: string;
  readonly name: string;
  readonly joinRemote: string;
  readonly pagination: boolean;
  readonly list: boolean;
  readonly remote: RemoteTypeInfo;
  readonly description?: string;

  constructor(options: RemoteRelationshipOptions) {
    const where = `RemoteRelationship ${options?.name ?? '(unnamed)'}`;
    if (!options?.name) throw new FederationError('RemoteRelationship needs a name');
    if (!options.fk) throw new FederationError(`${where} needs an fk`);
    if (!options.joinRemote) throw new FederationError(`${where} needs joinRemote (the member's federation key)`);
    const list = Array.isArray(options.target);
    const target = list ? (options.target as readonly RemoteType[])[0] : options.target;
    if (list && (options.target as readonly unknown[]).length !== 1) {
      throw new FederationError(`${where}: a list target holds exactly one remote type`);
    }
    const remote = remoteTypeInfo(target);
    if (!remote) throw new FederationError(`${where}: target must be a remote type such as reviews.Review, got ${String(target)}`);
    if (options.pagination && !list) throw new FederationError(`${where}: pagination needs a list target ([${remote.service}.${remote.name}])`);
    this.fk = options.fk;
    this.name = options.name;
    this.joinRemote = options.joinRemote;
    this.pagination = options.pagination ?? false;
    this.list = list;
    this.remote = remote;
    this.description = options.description;
  }

  /** What the ER picture draws for this edge. */
  [DESCRIBE_EDGE](): ForeignEdge {
    const { name, fk, list, description } = this;
    return { name, fk, service: this.remote.service, target: this.remote.name, joinKey: this.joinRemote, list, paginated: this.pagination, ...(description ? { description } : {}) };
  }
}

/** The remote edges among an entity's `__relationships__` (the diagram skips them). */
export function remoteRelationshipsOf(relationships: readonly unknown[] | undefined): RemoteRelationship[] {
  return (relationships ?? []).filter((r): r is RemoteRelationship => r instanceof RemoteRelationship);
}
