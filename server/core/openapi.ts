import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { RouteOptions } from 'fastify';
import type { Endpoint } from '@shared/contract/endpoint';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import { accessRuleOf, SESSION_COOKIE, type AccessRule } from './access';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type TransformResult = ReturnType<typeof jsonSchemaTransform>;
type TransformObjectInput = Parameters<typeof jsonSchemaTransformObject>[0];
type OpenApiDocument = ReturnType<typeof jsonSchemaTransformObject>;

/** The OpenAPI version the document is written in (3.1: JSON Schema 2020-12, `null` is a type). */
export const OPENAPI_VERSION = '3.1.0';

/**
 * The security schemes of the document. Which ones an operation takes is derived from the
 * route's access declaration (`config.access`, see access.ts), never written by hand.
 */
export const SECURITY_SCHEMES = {
  /** The browser's session (HttpOnly cookie set by POST /api/2/auth). */
  sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie of a signed-in browser (set by POST /api/2/auth).' },
  /** The anti-forgery value every state-changing call of a cookie session sends as a header. */
  antiCsrfHeader: {
    type: 'apiKey',
    in: 'header',
    name: ANTI_CSRF_HEADER,
    description: "The session's anti-forgery value (answered at sign-in); required with the session cookie on POST, PUT, PATCH and DELETE.",
  },
  /** The Outlook add-in's session token; the user needs ROLE_OUTLOOK. */
  addinBearer: { type: 'http', scheme: 'bearer', description: 'An Outlook add-in session token (POST /api/2/auth with the add-in client header, or POST /api/2/auth/addin-session); valid only while the user holds ROLE_OUTLOOK.' },
  /** Sign-in credentials (POST /api/2/auth only). */
  basicAuth: { type: 'http', scheme: 'basic', description: 'E-mail address and password, only to sign in (POST /api/2/auth).' },
} as const;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;
type SecurityRequirement = Partial<Record<SecuritySchemeName, string[]>>;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The project has not chosen a licence yet (package.json is private and names none):
 * the document says so (npm's word, as an SPDX "LicenseRef") instead of inventing one.
 */
const LICENSE = { name: 'UNLICENSED (no licence granted yet)', identifier: 'LicenseRef-UNLICENSED' } as const;

/** The options of @fastify/swagger's `openapi` part (everything but the paths). */
export function openApiBase() {
  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'Kuvert API', description: 'The /api/2 wire contract (shared/contract)', version: '2.0.0', license: LICENSE },
    components: { securitySchemes: SECURITY_SCHEMES },
  };
}

/** Which credentials an operation takes, from the route's access rule. */
export function securityOf(rule: AccessRule, method: string, webSessionOnly = false): SecurityRequirement[] {
  if (rule === 'public') return [];
  const cookie: SecurityRequirement = STATE_CHANGING.has(method) ? { sessionCookie: [], antiCsrfHeader: [] } : { sessionCookie: [] };
  return webSessionOnly ? [cookie] : [cookie, { addinBearer: [] }];
}

/** The 4xx answers the access rule itself can produce. */
function accessErrors(rule: AccessRule, method: string): Record<string, string> {
  if (rule === 'public') return {};
  const errors: Record<string, string> = { 401: 'Not signed in, or the session has ended (AuthenticationRequiredException)' };
  const forbidden: string[] = [];
  if (typeof rule === 'object') forbidden.push(`the user holds none of the roles ${rule.roles.join(', ')} (AccessDeniedException)`);
  if (STATE_CHANGING.has(method)) forbidden.push('a cookie session sent no or a wrong anti-forgery value (CsrfTokenException)');
  if (forbidden.length > 0) errors[403] = `Refused: ${forbidden.join('; or ')}`;
  return errors;
}

/**
 * `operationId` from method and path, unique because the pair is: `GET /api/2/deliveries/:deliveryUuid/files`
 * → `getDeliveriesByDeliveryUuidFiles`. A route may name its own (`schema.operationId`).
 */
export function operationIdOf(method: string, url: string): string {
  const path = url.startsWith('/api/2/') ? url.slice('/api/2'.length) : url;
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  const capitalized = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return method.toLowerCase() + capitalized.join('');
}

/**
 * Query, params and headers schemas as @fastify/swagger can expand them into parameters:
 * - inlined: it cannot follow a `$ref` to a named component (a contract schema with
 *   `.meta({ id })`); a rebuilt object with the same shape and catchall has no registry entry;
 * - a record (any parameter name, e.g. the OpenID provider's callback) becomes an object with
 *   no named property and the record's values as catchall: no parameter is listed.
 */
function inlineParameterSchemas(schema: Record<string, unknown>): Record<string, unknown> {
  const inlined: Record<string, unknown> = { ...schema };
  for (const part of ['querystring', 'params', 'headers'] as const) {
    const zodSchema = schema[part] as ZodType | undefined;
    if (zodSchema instanceof z.ZodObject) {
      const catchall = zodSchema._zod.def.catchall as ZodType | undefined;
      const plain = z.object(zodSchema.shape);
      inlined[part] = catchall ? plain.catchall(catchall) : plain;
    } else if (zodSchema instanceof z.ZodRecord) {
      inlined[part] = z.object({}).catchall(zodSchema._zod.def.valueType as ZodType);
    }
  }
  return inlined;
}

const ERROR_RESPONSE_REF = { $ref: '#/components/schemas/BackendError' };

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ERROR_RESPONSE_REF } } };
}

/**
 * jsonSchemaTransform plus what outside tools need of every operation, derived from the
 * route itself so it cannot drift: `operationId`, `security` from the access declaration,
 * the error shape (SPEC §8) on the 4xx answers the access rule and input validation can
 * give and on every other 4xx (`4XX`), and a 2xx for routes whose success has no schema.
 */
export function openApiTransform(input: TransformInput): TransformResult {
  const schema = input.schema as Record<string, unknown> | undefined;
  const route = input.route as unknown as RouteOptions;
  const result = jsonSchemaTransform(schema ? ({ ...input, schema: inlineParameterSchemas(schema) } as TransformInput) : input);
  const transformed = (result.schema ?? {}) as Record<string, unknown>;
  if (transformed.hide) return result;

  const method = (Array.isArray(route.method) ? route.method[0] : route.method) as string;
  const rule = accessRuleOf(route);
  if (rule === undefined) throw new Error(`Route ${method} ${input.url} declares no access (config.access)`);
  if (transformed.security !== undefined && rule !== 'public') {
    throw new Error(`Route ${method} ${input.url}: only public routes may declare their own security; others derive it from config.access`);
  }

  // `produces` (a route's non-JSON success) is read here only: @fastify/swagger would put
  // every answer, the errors too, under those media types.
  const { produces, ...described } = transformed as { produces?: string[] } & Record<string, unknown>;
  const response = { ...((transformed.response as Record<string, unknown> | undefined) ?? {}) };
  const hasInput = ['body', 'querystring', 'params', 'headers'].some((part) => schema?.[part] !== undefined);
  const derived: Record<string, string> = { ...accessErrors(rule, method) };
  if (hasInput) derived[400] = 'The request does not match the schema (ValidationException; `metadata` names the fields)';
  for (const [code, description] of Object.entries(derived)) {
    response[code] ??= errorResponse(description);
  }
  response['4XX'] ??= errorResponse('Any other client error, in the error shape of SPEC §8');
  if (!Object.keys(response).some((code) => code.startsWith('2'))) {
    // A success that is not JSON (a file, a page): the route names its media types in `produces`.
    if (!produces || produces.length === 0) throw new Error(`Route ${method} ${input.url} declares no 2xx response: declare one, or \`produces\` for a non-JSON answer`);
    const content = Object.fromEntries(produces.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]));
    response['200'] = { description: 'Success (the body is not JSON)', content };
  }

  const roles = typeof rule === 'object' ? rule.roles : undefined;
  return {
    ...result,
    schema: {
      ...described,
      operationId: (transformed.operationId as string | undefined) ?? operationIdOf(method, input.url),
      security: (transformed.security as SecurityRequirement[] | undefined) ?? securityOf(rule, method, (route.config as { endpoint?: Endpoint } | undefined)?.endpoint?.webSessionOnly === true),
      ...(roles ? { 'x-kuvert-roles': roles } : {}),
      response,
    },
  };
}

/**
 * jsonSchemaTransformObject (contract schemas as components), tidied for outside tools:
 * - the type provider registers an input (`…Input`) and an output variant of every contract
 *   schema; where both are the same, the input one is dropped and refers to the output one
 *   (clients get one `CreateDeliveryBody`, not two types);
 * - only the components some operation reaches are kept (tools flag the unused ones), and an
 *   input variant kept alone takes the contract's name (`CreateDeliveryBody`).
 */
export function openApiTransformObject(input: TransformObjectInput): OpenApiDocument {
  const generated = jsonSchemaTransformObject(input) as OpenApiDocument & { components?: { schemas?: Record<string, unknown> } };
  const schemas = generated.components?.schemas;
  if (!schemas) return generated;
  const prefix = '#/components/schemas/';

  // Input variants equal to their output variant once every merged ref is renamed too.
  let merged = new Set(Object.keys(schemas).filter((name) => name.endsWith('Input') && name.slice(0, -'Input'.length) in schemas));
  const renameRefs = (node: unknown, names: Set<string>): unknown =>
    JSON.parse(JSON.stringify(node), (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix) && names.has(value.slice(prefix.length))) {
        return value.slice(0, -'Input'.length);
      }
      return value;
    });
  for (let changed = true; changed; ) {
    const still = new Set([...merged].filter((name) => JSON.stringify(renameRefs(schemas[name], merged)) === JSON.stringify(schemas[name.slice(0, -'Input'.length)])));
    changed = still.size !== merged.size;
    merged = still;
  }
  const document = renameRefs(generated, merged) as typeof generated;
  const renamed = document.components!.schemas!;

  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix)) {
        const name = decodeURIComponent(value.slice(prefix.length));
        if (!used.has(name)) {
          used.add(name);
          visit(renamed[name]);
        }
      } else {
        visit(value);
      }
    }
  };
  visit(document.paths);
  // An input variant used where its output variant is not takes the contract's name.
  const sole = new Set([...used].filter((name) => name.endsWith('Input') && !used.has(name.slice(0, -'Input'.length))));
  const kept = Object.fromEntries(Object.entries(renamed).filter(([name]) => used.has(name)).map(([name, schema]) => [sole.has(name) ? name.slice(0, -'Input'.length) : name, schema]));
  return renameRefs({ ...document, components: { ...document.components, schemas: kept } }, sole) as OpenApiDocument;
}

/** The published document: the generated one with this server's public address as its server. */
export function publishedOpenApi(document: object, publicUrl: string): object {
  return { ...document, servers: [{ url: publicUrl, description: 'This Kuvert server' }] };
}
