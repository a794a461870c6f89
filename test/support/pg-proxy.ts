/** A TCP proxy in front of the PostgreSQL server, for tests that lose a connection on purpose. */
import { EventEmitter, once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy to the server. Once `dropNextCommitReply()` is called, the next connection that
 * sends COMMIT has it forwarded, the server's answer swallowed, and both sides closed: the server
 * committed, the client never hears so. Emits 'dropped' when that happened. `cutAll()` closes
 * every connection with no word from the server, as a network cut does.
 */
export class PgProxy extends EventEmitter {
  readonly server: Server;
  private armed = false;
  private readonly sockets = new Set<Socket>();

  constructor(upstream: URL) {
    super();
    this.server = createServer((client) => {
      const server = connect(Number(upstream.port || 5432), upstream.hostname);
      for (const s of [client, server]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => this.sockets.delete(s));
      }
      let commitSent = false;
      client.on('data', (chunk: Buffer) => {
        // A simple-protocol Query ('Q') or a Parse ('P') whose text is COMMIT.
        if (this.armed && /^[QP]/.test(chunk.toString('latin1')) && /\bcommit\b/i.test(chunk.toString('latin1'))) {
          this.armed = false;
          commitSent = true;
        }
        server.write(chunk);
      });
      server.on('data', (chunk: Buffer) => {
        if (!commitSent) return void client.write(chunk);
        // The server's answer to COMMIT: it has committed. The client never gets it.
        server.destroy();
        client.destroy();
        this.emit('dropped');
      });
      client.on('close', () => server.destroy());
      server.on('close', () => client.destroy());
    });
  }

  /** A proxy on a free port of 127.0.0.1 to the server of `url`; `url` through it is `.url`. */
  static async start(url: string): Promise<PgProxy> {
    const proxy = new PgProxy(new URL(url));
    proxy.server.listen(0, '127.0.0.1');
    await once(proxy.server, 'listening');
    const through = new URL(url);
    through.host = `127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    proxy.url = through.toString();
    return proxy;
  }

  url = '';

  /** Close every connection at once, with no word from the server (a network cut). */
  cutAll(): void {
    for (const s of this.sockets) s.destroy();
  }

  dropNextCommitReply(): void {
    this.armed = true;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}
