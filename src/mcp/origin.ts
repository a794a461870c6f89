/**
 * DNS-rebinding protection for MCP over HTTP. The MCP specification requires servers to check
 * `Origin` (a web page on another site must not reach a local server through the browser); a
 * rebinding attack also shows in `Host`, which names the attacker's domain. Both are checked
 * before the request reaches the transport: 403 when either names something not allowed.
 *
 * Written here because the SDK ships this only as Express middleware (and deprecated its
 * transport options for it); the rule is the SDK's: hostnames compared without the port.
 */
import type { MiddlewareHandler } from 'hono';

export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface OriginPolicy {
  /**
   * Hostnames (no port) the `Host` header may name. Default: the loopback names, right for a
   * server on 127.0.0.1. A server reached by other names lists them; `false` skips the check
   * (only behind a proxy that does it).
   */
  allowedHosts?: readonly string[] | false;
  /**
   * Origins (`https://app.example.com`) a browser request may come from. Default: pages on a
   * loopback host (any port). Requests without `Origin` (agents, curl) are not browsers' and pass.
   */
  allowedOrigins?: readonly string[] | false;
}

const hostnameOf = (value: string): string | undefined => {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

function refuse(message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status: 403 });
}

export function originGuard(policy: OriginPolicy = {}): MiddlewareHandler {
  const hosts = policy.allowedHosts === false ? undefined : new Set((policy.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase()));
  const origins = policy.allowedOrigins === false ? undefined : policy.allowedOrigins?.map((o) => o.toLowerCase().replace(/\/$/, ''));
  return async (c, next) => {
    if (hosts) {
      const header = c.req.header('host') ?? new URL(c.req.url).host;
      const hostname = hostnameOf(header);
      if (!hostname || !hosts.has(hostname)) return refuse(`Host ${JSON.stringify(header)} is not allowed (allowedHosts)`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && policy.allowedOrigins !== false) {
      const allowed = origins
        ? origins.includes(origin.toLowerCase().replace(/\/$/, ''))
        : LOOPBACK_HOSTS.includes(hostnameOf(origin) ?? '') && /^https?:\/\//i.test(origin);
      if (!allowed) return refuse(`Origin ${JSON.stringify(origin)} is not allowed (allowedOrigins)`);
    }
    return next();
  };
}
