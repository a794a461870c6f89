/**
 * The compat layer's configuration error, in a file of its own: the persisted-mapping reader
 * throws it too, and ergraph-migrate compiles that reader into its own package without the
 * flat schema (and the engine files it imports).
 */

/** The v6 schema cannot be served flat as is (two methods share one v5 name), or a mapping file is bad. */
export class CompatConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompatConfigError';
  }
}
