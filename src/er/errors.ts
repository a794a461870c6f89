/**
 * Misconfiguration found while building a diagram, a schema or a resolver plan (the
 * specification's `ValueError`). Thrown at startup so a bad graph never reaches a request.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A loader broke its contract at run time (wrong number of values, missing params, ...). */
export class LoaderError extends Error {
  override name = 'LoaderError';
}
