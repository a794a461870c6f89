import { EXIT as COMMON_EXIT } from '../src/cli-kit/io.js';

/**
 * `ergraph-migrate`'s exit codes: the common ones, 3 manual work left (or v5 documents pending a
 * v6 schema), 4 `verify` found an operation whose v6 answer differs from its v5 one, and 5
 * `verify` proved less than it was asked to (an operation not run, or none found); 130 and 143
 * (128 + the signal's number, as shells report it) a run SIGINT or SIGTERM stopped while it wrote.
 */
export const EXIT = { ...COMMON_EXIT, manual: 3, differs: 4, unproven: 5, interrupted: 130, terminated: 143 } as const;
