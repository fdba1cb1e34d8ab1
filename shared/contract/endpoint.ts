import { z, type ZodType } from 'zod';
import { API_BASE, type RoleName } from './constants';

/**
 * Who may call an endpoint (the server enforces it, server/core/access.ts; OpenAPI derives the
 * security schemes from it).
 * - `'public'`: anyone; no anti-forgery check (pre-login calls carry credentials or are rate limited).
 * - `'authenticated'`: a signed-in, enabled user.
 * - `{ roles }`: a signed-in user holding at least one of the roles.
 */
export type AccessRule = 'public' | 'authenticated' | { readonly roles: readonly RoleName[] };

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call of `/api/2`, declared once (see README.md, "Endpoint catalogue"): the server
 * registers its route from it (server/core/endpoint-route.ts), the clients call it through
 * `call()` (shared/api/call.ts), OpenAPI describes it.
 */
export interface Endpoint {
  readonly method: EndpointMethod;
  /** Path under `/api/2` in OpenAPI form: `/deliveries/{deliveryUuid}`. */
  readonly path: string;
  readonly params?: ZodType;
  readonly query?: ZodType;
  /**
   * Request headers the call needs (a one-time token's header, shared/contract/link-token.ts); a
   * loose object, since the validated value replaces the request's headers. Clients send them as
   * the call's `headers` option.
   */
  readonly headers?: ZodType;
  /** JSON body. A raw body (`consumes`) has none. */
  readonly body?: ZodType;
  /** The successful answers: status → JSON schema (`NoContentSchema` for 204). Empty when `produces` is set. */
  readonly response: Readonly<Partial<Record<200 | 201 | 202 | 204, ZodType>>>;
  /** Error statuses the call itself answers (in the SPEC §8 shape); access and validation errors are derived. */
  readonly errors: readonly number[];
  readonly access: AccessRule;
  /** Unique across the catalogue; the name generated clients use. */
  readonly operationId: string;
  readonly summary: string;
  /** The area (OpenAPI tag). */
  readonly tag: string;
  /** A success body that is not JSON (a file, a page): its media types. */
  readonly produces?: readonly string[];
  /** A request body that is not JSON (raw bytes): its media type. */
  readonly consumes?: string;
  /** Only a web (cookie) session may call it; an add-in bearer token is refused with 403 (minting add-in tokens). */
  readonly webSessionOnly?: true;
  /** Public, but takes the sign-in credentials as HTTP Basic (POST /auth only). */
  readonly basicCredentials?: true;
  /** Left out of the OpenAPI document (the document itself). */
  readonly hidden?: true;
}

/** The answer of a 204: no body (a client reads it as `null`). */
export const NoContentSchema = z.null().describe('No content');

/** Declares an endpoint; keeps the literal types of its schemas so server and client infer from them. */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}

/** What an area states once for all its entries: the OpenAPI tag and who may call them. */
export interface EndpointAreaDefaults {
  readonly tag: string;
  readonly access: AccessRule;
}

/** What an entry states itself besides method, path, operationId and summary; it may differ from its area's tag or access. */
export type EndpointFields = Omit<Endpoint, 'method' | 'path' | 'operationId' | 'summary' | 'tag' | 'access'> & Partial<EndpointAreaDefaults>;

/** An entry declared through an area: the area's tag and access unless the entry gives its own. */
export type AreaEndpoint<D extends EndpointAreaDefaults, M extends EndpointMethod, P extends string, F extends EndpointFields> = Omit<D, keyof F> & {
  readonly method: M;
  readonly path: P;
  readonly operationId: string;
  readonly summary: string;
} & F;

/**
 * The declarations of one area of the catalogue (one file of `endpoints/`): `area.get(path,
 * operationId, summary, { params, query, body, response, errors, … })` and likewise `post`, `put`,
 * `patch`, `delete`. The area gives each entry its tag and its access rule unless the entry states
 * its own; the result is a plain `Endpoint`, the same object the server registers and `call()` uses.
 */
export function endpointArea<const D extends EndpointAreaDefaults>(defaults: D) {
  const declare =
    <const M extends EndpointMethod>(method: M) =>
    <const P extends string, const F extends EndpointFields>(path: P, operationId: string, summary: string, fields: F): AreaEndpoint<D, M, P, F> =>
      defineEndpoint({ ...defaults, method, path, operationId, summary, ...fields }) as AreaEndpoint<D, M, P, F>;
  return { get: declare('GET'), post: declare('POST'), put: declare('PUT'), patch: declare('PATCH'), delete: declare('DELETE') };
}

/** `/deliveries/{deliveryUuid}` → `/api/2/deliveries/:deliveryUuid` (the server's route syntax). */
export function routePathOf(endpoint: Pick<Endpoint, 'path'>): string {
  return `${API_BASE}${endpoint.path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')}`;
}

/** The path parameter names of a template, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
}

/** The template with its parameters filled in (URI-encoded), still relative to `/api/2`. */
export function fillPath(path: string, params: Readonly<Record<string, string | number>> | undefined): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Path ${path}: parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

type Out<S> = S extends ZodType ? z.output<S> : undefined;
type In<S> = S extends ZodType ? z.input<S> : undefined;

/** What the server's handler receives, parsed. */
export type EndpointParams<E extends Endpoint> = Out<E['params']>;
export type EndpointQuery<E extends Endpoint> = Out<E['query']>;
export type EndpointBody<E extends Endpoint> = Out<E['body']>;
/** What the server's handler may return (the serializer parses it with the schema). */
export type EndpointReply<E extends Endpoint> = [keyof E['response']] extends [never]
  ? unknown // a non-JSON answer (`produces`)
  : { [K in keyof E['response']]: In<E['response'][K]> }[keyof E['response']];
/** What a client receives, parsed. */
export type EndpointResponse<E extends Endpoint> = [keyof E['response']] extends [never]
  ? unknown
  : { [K in keyof E['response']]: Out<E['response'][K]> }[keyof E['response']];

/** What a client sends: path parameters as strings/numbers, query and body as the schemas take them. */
export type EndpointInput<E extends Endpoint> = (E['params'] extends ZodType
  ? { params: { readonly [K in keyof z.output<E['params']>]: string | number } }
  : { params?: undefined }) &
  (E['query'] extends ZodType ? { query?: z.input<E['query']> } : { query?: undefined }) &
  (E['body'] extends ZodType ? (undefined extends z.input<E['body']> ? { body?: z.input<E['body']> } : { body: z.input<E['body']> }) : { body?: undefined });
