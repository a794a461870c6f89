/**
 * Persisted queries for the v5 endpoint. Old clients name documents by id instead of sending them:
 *
 * - Automatic Persisted Queries (Apollo's protocol): `extensions.persistedQuery: { version: 1,
 *   sha256Hash }`. Without `query`, a known hash runs its document and an unknown one answers
 *   `PersistedQueryNotFound`, on which the client retries with the document and the hash; that
 *   pair is checked (sha256 of the document must equal the hash) and remembered.
 * - The mapping `ergraph-migrate v5-to-v6` writes beside a rewritten manifest
 *   (`<name>.v6-map.json`, `{ "<old id>": { id, body, v5Body } }`): an old id runs its `v5Body`,
 *   so a client built from the old manifest is served without ever sending a document.
 *
 * What clients register is bounded by count and by size, least recently used out first: hashes
 * are cheap to invent, so a client sending new pairs in a loop only evicts its own.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CompatConfigError } from './errors.js';

/** One entry of a `<name>.v6-map.json` file, as `ergraph-migrate v5-to-v6` writes it. */
export interface PersistedMappingEntry {
  /** The id v6 clients send for the rewritten document. */
  id: string;
  /** The rewritten (v6) document. */
  body: string;
  /** The v5 document the old id stands for: what this endpoint runs. */
  v5Body: string;
}

export type PersistedMapping = Readonly<Record<string, PersistedMappingEntry>>;

export interface PersistedQueryOptions {
  /** Old ids to serve: a mapping written by `ergraph-migrate v5-to-v6`, or the path of its file (read once, at start). */
  mapping?: PersistedMapping | string;
  /** Most documents clients may register through APQ (default 1000). */
  maxEntries?: number;
  /** Most memory those documents may hold, estimated at 2 bytes per character of hash and text (default 4 MiB). */
  maxBytes?: number;
}

/** What a request's persisted-query extension resolves to. */
export type PersistedResolution =
  /** No `persistedQuery` extension: the request stands on its `query`. */
  | { kind: 'none'; query: string | undefined }
  /** `id`: the hash or document id the request named the document by. */
  | { kind: 'found'; query: string; id: string }
  /** A document and its hash, checked: remember it once it proves runnable. */
  | { kind: 'register'; query: string; hash: string }
  | { kind: 'error'; code: PersistedErrorCode; message: string };

export type PersistedErrorCode = 'PERSISTED_QUERY_NOT_FOUND' | 'PERSISTED_QUERY_NOT_SUPPORTED' | 'BAD_USER_INPUT';

export interface PersistedQueries {
  /**
   * The document a request stands for: its `query`; else the APQ hash in `extensions`; else
   * `documentId` (a Relay client's `doc_id`), looked up in the mapping and the APQ store.
   */
  resolve(query: string | undefined, extensions: Record<string, unknown> | null | undefined, documentId?: string | null): PersistedResolution;
  /** Keeps a checked document under its hash (call once it parsed and validated). */
  register(hash: string, query: string): void;
  /** For an old id of the mapping: the id of its v6 document in the rewritten manifest. */
  v6IdOf(id: string): string | undefined;
  /** Documents registered through APQ, and their estimated bytes. */
  readonly size: number;
  readonly bytes: number;
}

export const DEFAULT_PERSISTED_ENTRIES = 1000;
export const DEFAULT_PERSISTED_BYTES = 4 * 1024 * 1024;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The old id → v5 document table of a mapping (object or file), checked entry by entry. */
export function loadPersistedMapping(mapping: PersistedMapping | string): Map<string, string> {
  return new Map([...mappingEntries(mapping)].map(([oldId, entry]) => [oldId, entry.v5Body]));
}

function mappingEntries(mapping: PersistedMapping | string): Map<string, { v5Body: string; id: string | undefined }> {
  let value: unknown = mapping;
  const where = typeof mapping === 'string' ? `persisted query mapping ${mapping}` : 'persisted query mapping';
  if (typeof mapping === 'string') {
    let text: string;
    try {
      text = readFileSync(mapping, 'utf8');
    } catch (error) {
      throw new CompatConfigError(`${where}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CompatConfigError(`${where}: not JSON (${(error as Error).message})`);
    }
  }
  if (!isObject(value)) throw new CompatConfigError(`${where}: must be an object { "<old id>": { id, body, v5Body } }`);
  const out = new Map<string, { v5Body: string; id: string | undefined }>();
  for (const [oldId, entry] of Object.entries(value)) {
    if (!isObject(entry) || typeof entry.v5Body !== 'string')
      throw new CompatConfigError(`${where}: entry "${oldId}" needs a string "v5Body" (the document old clients mean by that id), as ergraph-migrate v5-to-v6 writes it`);
    out.set(oldId, { v5Body: entry.v5Body, id: typeof entry.id === 'string' ? entry.id : undefined });
  }
  return out;
}

/**
 * Hash → document, bounded by count and estimated bytes, least recently used out first. Own code
 * rather than a cache package: the project's one LRU (`DocumentCache`) weighs its keys, and this
 * one must weigh its values; the job is a `Map` and twenty lines.
 */
class BoundedStore {
  private readonly entries = new Map<string, string>();
  bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  private static cost(hash: string, text: string): number {
    return 2 * (hash.length + text.length);
  }

  get(hash: string): string | undefined {
    const text = this.entries.get(hash);
    if (text !== undefined) {
      this.entries.delete(hash);
      this.entries.set(hash, text);
    }
    return text;
  }

  set(hash: string, text: string): void {
    const cost = BoundedStore.cost(hash, text);
    if (cost > this.maxBytes || this.maxEntries < 1) return;
    const previous = this.entries.get(hash);
    if (previous !== undefined) {
      this.entries.delete(hash);
      this.bytes -= BoundedStore.cost(hash, previous);
    }
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.bytes + cost > this.maxBytes)) {
      const [oldest, oldText] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= BoundedStore.cost(oldest, oldText);
    }
    this.entries.set(hash, text);
    this.bytes += cost;
  }
}

const error = (code: PersistedErrorCode, message: string): PersistedResolution => ({ kind: 'error', code, message });

/** `false` turns the extension off: requests that use it are told it is not supported. */
export function persistedQueries(options: PersistedQueryOptions | false = {}): PersistedQueries {
  const enabled = options !== false;
  const opts = options === false ? {} : options;
  const mapped = opts.mapping === undefined ? new Map<string, { v5Body: string; id: string | undefined }>() : mappingEntries(opts.mapping);
  const store = new BoundedStore(opts.maxEntries ?? DEFAULT_PERSISTED_ENTRIES, opts.maxBytes ?? DEFAULT_PERSISTED_BYTES);
  return {
    resolve(query, extensions, documentId) {
      const persisted = extensions?.persistedQuery;
      if ((persisted === undefined || persisted === null) && (query !== undefined || !documentId)) return { kind: 'none', query };
      if (persisted === undefined || persisted === null) {
        if (!enabled) return error('PERSISTED_QUERY_NOT_SUPPORTED', 'PersistedQueryNotSupported');
        // `sha256:<hex>` is how GraphQL over HTTP's persisted documents spell a hash.
        const found = mapped.get(documentId!)?.v5Body ?? store.get(documentId!.replace(/^sha256:/, '').toLowerCase());
        return found === undefined ? error('PERSISTED_QUERY_NOT_FOUND', 'PersistedQueryNotFound') : { kind: 'found', query: found, id: documentId! };
      }
      if (!enabled) return error('PERSISTED_QUERY_NOT_SUPPORTED', 'PersistedQueryNotSupported');
      if (!isObject(persisted) || persisted.version !== 1)
        return error('PERSISTED_QUERY_NOT_SUPPORTED', 'Unsupported persisted query version: this endpoint knows version 1');
      const hash = persisted.sha256Hash;
      if (typeof hash !== 'string' || hash === '') return error('BAD_USER_INPUT', "'extensions.persistedQuery.sha256Hash' must be a string");
      if (query === undefined) {
        const found = mapped.get(hash)?.v5Body ?? store.get(hash.toLowerCase());
        return found === undefined ? error('PERSISTED_QUERY_NOT_FOUND', 'PersistedQueryNotFound') : { kind: 'found', query: found, id: hash };
      }
      // Hashes are lowercase hex in the protocol; compare the same way whatever the client sent.
      const normalized = hash.toLowerCase();
      if (!SHA256_HEX.test(normalized) || sha256Hex(query) !== normalized) return error('BAD_USER_INPUT', 'provided sha does not match query');
      return { kind: 'register', query, hash: normalized };
    },
    register(hash, query) {
      if (enabled && !mapped.has(hash)) store.set(hash, query);
    },
    v6IdOf: (id) => mapped.get(id)?.id,
    get size() {
      return store.size;
    },
    get bytes() {
      return store.bytes;
    },
  };
}
