// Ends a one-shot command once what it printed is written. A user's module it loaded (`--app`, the
// ER graph ergraph-migrate looks for) may hold the event loop open: a server it starts, a database
// pool, a timer. The command is done then, so its process must end rather than wait on them.
export async function finish(code) {
  process.exitCode = code;
  // stdout and stderr can be asynchronous (pipes on macOS, terminals on Windows): drain them first.
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))));
  process.exit(code);
}

// A reader that stops early (`ergraph-migrate ... --dry-run | head`) closes the pipe. What is left
// to print is dropped, and the rest of the work (files, the --report file, commits) goes on: the
// command neither dies on an unhandled EPIPE halfway through nor stops short.
export function quietOnClosedPipe() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    });
  }
}
