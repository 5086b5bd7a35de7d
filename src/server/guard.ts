/**
 * Satchel has no authentication, so it only answers loopback callers that are not web pages of a
 * foreign origin: the Host must be a loopback name (DNS rebinding), and a request carrying a
 * foreign Origin, or marked cross-site by the browser, is refused. The user may allow more Host
 * names (`host.docker.internal`, for tools in a container reaching the host's loopback through
 * Docker Desktop): only as the Host, never as a page's Origin.
 */
import type { Context, Next } from 'koa';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.ts';
import { InvalidInputError } from '../core/errors.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A DNS name or an IPv4 address: no port, no wildcard, no path. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A Host header value: a bracketed IPv6 literal or a name, then only an optional `:port`. The
 * address inside the brackets is checked by what it must equal (`[::1]`).
 */
const HOST_HEADER = /^(\[[0-9a-f:.]{2,45}\]|[^:[\]]+)(?::\d{1,5})?$/;

/**
 * The host part of a Host header value (`127.0.0.1:39300` → `127.0.0.1`, `[::1]:1` → `[::1]`), or
 * undefined when the value is not a host and an optional `:port`: `[::1]evil.example` or
 * `localhost:1@evil.example` are not a loopback host followed by junk, they are no host at all.
 */
export function hostName(host: string): string | undefined {
  const name = HOST_HEADER.exec(host.trim().toLowerCase())?.[1];
  return name !== undefined && (name.startsWith('[') || HOST_NAME.test(name)) ? name : undefined;
}

export function isLoopbackHost(host: string | undefined): boolean {
  // HTTP/1.0 requests may omit Host; a rebinding page always sends its own name.
  if (host === undefined || host === '') return true;
  const name = hostName(host);
  return name !== undefined && (LOOPBACK_HOSTS.has(name) || name.endsWith('.localhost'));
}

/** Host names the user allows besides the loopback ones (none by default). */
export type ExtraHosts = ReadonlySet<string>;
const NO_EXTRA_HOSTS: ExtraHosts = new Set();

/** The allowed extra Host names, lower-cased; anything but a plain host name is refused. */
export function extraHosts(names: readonly string[] | undefined): ExtraHosts {
  if (!names || names.length === 0) return NO_EXTRA_HOSTS;
  return new Set(
    names.map((raw) => {
      const name = raw.trim().toLowerCase();
      if (!HOST_NAME.test(name)) throw new InvalidInputError(`Allowed hosts: "${raw}" is not a host name (a name such as host.docker.internal, without a port or wildcard).`);
      return name;
    }),
  );
}

function isAllowedHost(host: string | undefined, extra: ExtraHosts): boolean {
  if (isLoopbackHost(host)) return true;
  const name = host === undefined ? undefined : hostName(host);
  return name !== undefined && extra.has(name);
}

/** Origins that may call Satchel: loopback pages and VS Code's own webviews. */
export function isAllowedOrigin(origin: string): boolean {
  if (origin.startsWith('vscode-webview://') || origin.startsWith('vscode-file://')) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return isLoopbackHost(url.host);
}

/** Why a request (HTTP or WebSocket upgrade) must be refused, or undefined when it may proceed. */
export function refusal(req: IncomingMessage, extra: ExtraHosts = NO_EXTRA_HOSTS): { status: number; code: string; message: string } | undefined {
  if (!isAllowedHost(req.headers.host, extra)) {
    return { status: 421, code: 'foreign_host', message: 'Satchel answers only requests addressed to a loopback host name (or one its allowed hosts setting names).' };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isAllowedOrigin(origin)) {
    return { status: 403, code: 'foreign_origin', message: `Requests from the origin ${origin} are not allowed.` };
  }
  const site = req.headers['sec-fetch-site'];
  if (origin === undefined && site === 'cross-site') {
    return { status: 403, code: 'cross_site', message: 'Cross-site browser requests are not allowed.' };
  }
  return undefined;
}

export function guard(extra: ExtraHosts = NO_EXTRA_HOSTS) {
  return async function checkCaller(ctx: Context, next: Next): Promise<void> {
    const refused = refusal(ctx.req, extra);
    if (refused) throw new HttpError(refused.status, refused.code, refused.message);
    const origin = ctx.get('origin');
    if (origin) {
      // A loopback page may read answers; nothing else ever gets CORS headers.
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Vary', 'Origin');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
        ctx.set('Access-Control-Allow-Headers', ctx.get('access-control-request-headers') || 'content-type');
        ctx.status = 204;
        return;
      }
    }
    await next();
  };
}
