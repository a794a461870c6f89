// Loader hook of test/support/loaded-modules.mjs: appends the URL of each module loaded to a file.
import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data.file;
}

export async function load(url, context, next) {
  appendFileSync(file, `${url}\n`);
  return next(url, context);
}
