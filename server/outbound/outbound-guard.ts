import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';

/**
 * The one gate for every request the server makes to an address a user chose (server/README.md,
 * "Outbound requests"): the Flows webhook and trust-network partners. It refuses anything but a public unicast address
 * (loopback, private, link-local, ULA, carrier-grade NAT, multicast, unspecified, broadcast, the
 * reserved and documentation ranges, cloud metadata addresses; IPv4-mapped IPv6 counts as its IPv4)
 * unless the operator allow-lists it, refuses plain http unless the operator allows it, checks at
 * save and again right before connecting, and connects to exactly the address it checked (no
 * second DNS answer in between), without following redirects.
 */

/** Why an address is refused; the save answers it as `problems[].reason`. */
export type OutboundRefusal = 'invalidUrl' | 'credentialsInUrl' | 'httpNotAllowed' | 'blockedAddress' | 'unresolvable';

export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
  constructor(
    readonly reason: OutboundRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** The operator's settings (`KUVERT_OUTBOUND_ALLOW`, `KUVERT_OUTBOUND_ALLOW_HTTP`). */
export interface OutboundPolicy {
  /** Addresses, CIDR ranges and host names admitted although internal. */
  allow: readonly string[];
  allowHttp: boolean;
}

/** The policy of this server's configuration (read at each check, so a test or restart changes it). */
export const outboundPolicy = (config: { outboundAllow: readonly string[]; outboundAllowHttp: boolean }): OutboundPolicy => ({ allow: config.outboundAllow, allowHttp: config.outboundAllowHttp });

/**
 * Cloud metadata services. Most lie in ranges refused anyway; Azure's wire server is a public
 * address. A CIDR entry of the allow-list never admits these, only the very address does.
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '168.63.129.16', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254']);

const HOST_NAME = /^(?=.*[a-z])[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*$/;

/** An allow-list entry is an address, a CIDR range or a host name (exact, no wildcards). */
export function isAllowEntry(entry: string): boolean {
  const value = normalHost(entry);
  return ipaddr.isValid(value) || ipaddr.isValidCIDR(value) || HOST_NAME.test(value);
}

const normalHost = (host: string) => host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');

/**
 * The range of an address as ipaddr.js names it (`unicast` = public; `loopback`, `private`,
 * `linkLocal`, `uniqueLocal`, …), or `metadata`. Odd IPv4 spellings (`0x7f000001`, `2130706433`,
 * `127.1`) and IPv4-mapped IPv6 (`::ffff:127.0.0.1`) are read as the IPv4 address they mean.
 */
export function addressRange(address: string): string {
  const parsed = ipaddr.process(normalHost(address));
  if (METADATA_ADDRESSES.has(parsed.toString())) return 'metadata';
  return parsed.range();
}

function allowedByList(address: string, policy: OutboundPolicy): boolean {
  const parsed = ipaddr.process(normalHost(address));
  return policy.allow.map(normalHost).some((entry) => {
    if (ipaddr.isValid(entry)) return ipaddr.process(entry).toString() === parsed.toString();
    if (!ipaddr.isValidCIDR(entry)) return false;
    const [range, prefix] = ipaddr.parseCIDR(entry);
    // An IPv4-mapped range (::ffff:10.0.0.0/104) is the IPv4 range it maps.
    const mapped = range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress();
    const base = mapped ? (range as ipaddr.IPv6).toIPv4Address() : range;
    const bits = mapped ? Math.max(0, prefix - 96) : prefix;
    if (base.kind() !== parsed.kind()) return false;
    if (METADATA_ADDRESSES.has(parsed.toString()) && bits < (base.kind() === 'ipv4' ? 32 : 128)) return false;
    return parsed.match(base, bits);
  });
}

/** Whether the server may connect to this address under the policy (unit-tested in outbound-guard.test.ts). */
export function addressPermitted(address: string, policy: OutboundPolicy): boolean {
  return addressRange(address) === 'unicast' || allowedByList(address, policy);
}

/** The system resolver cannot be cancelled: the request's deadline stops waiting for it instead. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

export interface CheckedTarget {
  url: URL;
  /** The address checked; the connection goes to exactly this one. */
  address: string;
  family: 4 | 6;
}

/**
 * Checks a URL for an outbound request: http(s) only (http only when allowed), no credentials,
 * a host that resolves, and every address it resolves to permitted (one internal answer is enough
 * to refuse: a name must not mix). A host name on the allow-list admits whatever it resolves to.
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy, signal?: AbortSignal): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError('invalidUrl', 'The address is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefusedError('invalidUrl', 'Only https (or, when the operator allows it, http) addresses are accepted');
  if (url.username !== '' || url.password !== '') throw new OutboundRefusedError('credentialsInUrl', 'The address must not contain a user name or password');
  if (url.protocol === 'http:' && !policy.allowHttp) throw new OutboundRefusedError('httpNotAllowed', 'Only https addresses are accepted (plain http is off: KUVERT_OUTBOUND_ALLOW_HTTP)');
  const host = normalHost(url.hostname);
  if (host === '') throw new OutboundRefusedError('invalidUrl', 'The address has no host');
  let addresses: LookupAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await untilAborted(lookup(host, { all: true, verbatim: true }), signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      addresses = [];
    }
    if (addresses.length === 0) throw new OutboundRefusedError('unresolvable', 'The host name could not be resolved');
  }
  if (!policy.allow.some((entry) => normalHost(entry) === host)) {
    for (const { address } of addresses) {
      if (!addressPermitted(address, policy)) {
        // The range, never the address: a caller must not learn what an internal name resolves to.
        throw new OutboundRefusedError('blockedAddress', `The address points at an internal or reserved network (${addressRange(address)}); the server does not send there unless the operator allows it (KUVERT_OUTBOUND_ALLOW)`);
      }
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` for the socket that answers the checked address whatever it is asked: no second DNS answer (rebinding) can slip in. */
export function pinnedLookup(target: Pick<CheckedTarget, 'address' | 'family'>): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

export interface OutboundRequest {
  method: 'POST' | 'GET' | 'PUT';
  headers: OutgoingHttpHeaders;
  /** A stream (a trust-network file part) is piped as it is read, never buffered whole. */
  body?: string | Readable;
  signal: AbortSignal;
  /**
   * Read the answer's headers and body, up to this many bytes (a longer body fails the request).
   * Only for a trust-network partner, whose signed answer must be verified; Flows never sets it.
   */
  readAnswerBytes?: number;
}

export interface OutboundAnswer {
  status: number;
  /** Only with `readAnswerBytes`. */
  headers?: Record<string, string | string[]>;
  body?: string;
}

/**
 * One request through the guard: checked again now (the policy or the DNS answer may have changed
 * since the save), sent to the checked address only (the `lookup` answers with it; TLS still
 * verifies the host name), redirects not followed (a 3xx is just a status). Unless the caller asks
 * for it (`readAnswerBytes`), the answer's body is never read: the caller learns the status only,
 * so nothing of an internal answer leaks back.
 */
export async function outboundRequest(raw: string, policy: OutboundPolicy, init: OutboundRequest): Promise<OutboundAnswer> {
  const target = await checkOutboundUrl(raw, policy, init.signal);
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const options = { method: init.method, headers: init.headers, signal: init.signal, agent: false as const, lookup: pinnedLookup(target) };
    const request = send(target.url, options, (response) => {
      const status = response.statusCode ?? 0;
      const limit = init.readAnswerBytes;
      if (limit === undefined) {
        resolve({ status });
        response.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          response.destroy();
          reject(new Error('The answer is too long'));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = value;
        resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.on('error', reject);
    const body = init.body;
    if (body === undefined || typeof body === 'string') request.end(body);
    else {
      body.on('error', (error) => request.destroy(error));
      body.pipe(request);
    }
  });
}

/** What kind of failure a request met: refused by the guard, TLS, no answer in time, or another network failure. */
export function outboundFailureKind(error: unknown): 'refused' | 'tls' | 'timeout' | 'network' {
  if (error instanceof OutboundRefusedError) return 'refused';
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || name === 'TimeoutError' || code === 'ETIMEDOUT' || code === 'ABORT_ERR') return 'timeout';
  if (typeof code === 'string' && (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SIGNATURE/.test(code))) return 'tls';
  return 'network';
}

/** A network failure in words safe to show a user: no address, no port, nothing the target sent. */
export function outboundErrorText(error: unknown): string {
  if (error instanceof OutboundRefusedError) return `Refused before connecting: ${error.message}`;
  const kind = outboundFailureKind(error);
  if (kind === 'timeout') return 'No answer in time';
  if (kind === 'tls') return 'The TLS certificate was not accepted';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'The connection was refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'The connection was closed before an answer';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'The host is unreachable';
  return 'The connection failed';
}
