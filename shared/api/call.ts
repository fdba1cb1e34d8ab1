import { fillPath, type Endpoint, type EndpointInput, type EndpointResponse } from '@shared/contract/endpoint';
import type { ZodType } from 'zod';
import type { ApiClient, ApiResponse, RequestOptions } from './client';

/** Transport options of one call besides what the endpoint declares. */
export type CallOptions = Pick<RequestOptions, 'headers' | 'basicAuth' | 'acceptStatus' | 'timeoutMs' | 'signal' | 'rawBody' | 'contentType'>;

/** An answer that does not match the endpoint's response schema: a server/client mismatch, never user input. */
export class ResponseSchemaError extends Error {
  override readonly name = 'ResponseSchemaError';
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly issues: unknown,
  ) {
    super(`The answer of ${operationId} (HTTP ${status}) does not match its schema`);
  }
}

/**
 * The parsed answer of a response: the schema of its status parses the body (a 204 reads as
 * `null`). Statuses the endpoint does not declare (accepted through `acceptStatus`) are returned
 * unparsed: the caller looks at `status` first.
 */
export function parseEndpointResponse<E extends Endpoint>(endpoint: E, status: number, data: unknown): EndpointResponse<E> {
  const schema = (endpoint.response as Record<number, ZodType | undefined>)[status];
  if (!schema) return data as EndpointResponse<E>;
  const result = schema.safeParse(status === 204 || status === 205 ? null : data);
  if (!result.success) throw new ResponseSchemaError(endpoint.operationId, status, result.error.issues);
  return result.data as EndpointResponse<E>;
}

/**
 * Calls a catalogue endpoint and returns the whole response with the parsed body (for calls
 * that need the status, headers or final URL).
 */
export async function callForResponse<E extends Endpoint>(
  client: ApiClient,
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<ApiResponse<EndpointResponse<E>>> {
  const { params, query, body } = input as { params?: Record<string, string | number>; query?: RequestOptions['query']; body?: unknown };
  const response = await client.request<unknown>(endpoint.method, fillPath(endpoint.path, params), { ...options, query, body });
  return { ...response, data: parseEndpointResponse(endpoint, response.status, response.data) };
}

/**
 * The one typed way to call `/api/2`: path from the template and `params`, `query`, JSON
 * `body`; the answer is parsed with the endpoint's response schema (always: the lists are paged,
 * and a mismatch surfaces as ResponseSchemaError instead of a wrong type deeper in the UI).
 */
export async function call<E extends Endpoint>(client: ApiClient, endpoint: E, input: EndpointInput<E>, options: CallOptions = {}): Promise<EndpointResponse<E>> {
  return (await callForResponse(client, endpoint, input, options)).data;
}
