/**
 * How a bin runs its command line's `main`: the process ends once what it printed is written.
 * Compiled into both packages with the command lines, so each launcher (bin/ergraph.js,
 * codemods/bin/ergraph-migrate.js) only picks the built or the source entry and calls `run`.
 */

/** `main`'s exit code becomes the process's, and the process ends: see `finish`. */
export async function runCommand(main: (argv: readonly string[]) => Promise<number>, argv: readonly string[]): Promise<void> {
  quietOnClosedPipe();
  await finish(await main(argv));
}

/**
 * Ends a one-shot command once what it printed is written. A user's module it loaded (`--app`, the
 * ER graph ergraph-migrate looks for) may hold the event loop open: a server it starts, a database
 * pool, a timer. The command is done then, so its process must end rather than wait on them.
 */
async function finish(code: number): Promise<void> {
  process.exitCode = code;
  // stdout and stderr can be asynchronous (pipes on macOS, terminals on Windows): drain them first.
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit(code);
}

/**
 * A reader that stops early (`ergraph-migrate ... --dry-run | head`) closes the pipe. What is left
 * to print is dropped, and the rest of the work (files, the --report file, commits) goes on: the
 * command neither dies on an unhandled EPIPE halfway through nor stops short.
 */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    });
  }
}
