import { randomUUID } from 'node:crypto';
import type { BackendError, ErrorClass } from '@shared/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, reasonOf } from '../db/availability';
import { HttpError } from './http-error';
import { logSafePath } from './log-redaction';
import { STORAGE_RETRY_AFTER_SECONDS, StorageUnavailableError } from './storage-unavailable';

/** Client-error status → exception class, for errors Fastify raises itself. */
const CLASS_BY_STATUS: Record<number, ErrorClass> = {
  400: 'ValidationException',
  401: 'AuthenticationRequiredException',
  403: 'AccessDeniedException',
  404: 'NotFoundException',
  405: 'NotFoundException',
  409: 'ConflictException',
  413: 'PayloadTooLargeException',
  415: 'UnsupportedMediaTypeException',
  429: 'RateLimitExceededException',
};

/** Messages for Fastify's own client errors, worded for people, not for Fastify developers. */
const MESSAGE_BY_STATUS: Record<number, string> = {
  400: 'The request is malformed',
  413: 'The request body is too large',
  415: 'Unsupported content type',
};

export interface ErrorDescription {
  status: number;
  body: BackendError;
  headers: Record<string, string>;
}

/** Turns anything thrown into the backend error object (SPEC §3), never leaking internals. */
export function describeError(error: unknown, requestUri: string): ErrorDescription {
  const body = (status: number, errorClass: string, message: string, metadata: Record<string, unknown> = {}) => ({
    uuid: randomUUID(),
    requestUri,
    error: errorClass,
    message,
    metadata,
  });
  if (error instanceof HttpError) {
    return { status: error.statusCode, body: body(error.statusCode, error.errorClass, error.message, error.metadata), headers: error.headers };
  }
  if (error instanceof StorageUnavailableError) {
    // The blob store is down (issue 29 §3): the same answer as a database outage below (one class for
    // "try again shortly", `part` names what is away), with Retry-After so clients wait instead of failing.
    const retryAfterSeconds = STORAGE_RETRY_AFTER_SECONDS;
    const message = 'The file store is temporarily unavailable, please try again later';
    return { status: 503, body: body(503, 'ServiceUnavailableException', message, { part: 'storage', reason: 'storageUnavailable', retryAfterSeconds }), headers: { 'retry-after': String(retryAfterSeconds) } };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => {
      const issue = v.params.issue as { code?: string; message?: string } | undefined;
      return { path: v.instancePath, code: issue?.code ?? 'invalid', message: v.message ?? issue?.message ?? 'invalid' };
    });
    return {
      status: 400,
      body: body(400, 'ValidationException', `Invalid ${error.validationContext ?? 'request'}`, { issues }),
      headers: {},
    };
  }
  const fastifyError = error as Partial<FastifyError> | undefined;
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const errorClass = CLASS_BY_STATUS[status] ?? 'ValidationException';
    const message = MESSAGE_BY_STATUS[status] ?? (fastifyError?.message || 'Bad request');
    return { status, body: body(status, errorClass, message, fastifyError?.code ? { code: fastifyError.code } : {}), headers: {} };
  }
  if (isDatabaseUnavailable(error)) {
    // The database is away (restart, failover): the request may simply be sent again (issue 29 §1).
    return { status: 503, body: body(503, 'ServiceUnavailableException', 'The database is unavailable; try again shortly', { part: 'database', reason: 'databaseUnavailable', retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS }), headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } };
  }
  return { status: 500, body: body(500, 'InternalServerException', 'An unexpected error occurred'), headers: {} };
}

/** What a client is told to wait when the database is away: a PostgreSQL restart takes a few seconds. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

function send(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  // A path no route answers (a retired token path such as /room-links/<token>…) as the log shows it,
  // so its token is not echoed; a routed path as it came (its long ids are not secrets).
  const path = request.url.split('?')[0] ?? request.url;
  const { status, body, headers } = describeError(error, request.routeOptions.url === undefined ? logSafePath(request.url) : path);
  if (status === 503) request.log.warn({ errorClass: body.error, errorUuid: body.uuid, reason: reasonOf(error) }, 'request refused: unavailable');
  else if (status >= 500) request.log.error({ err: error, errorUuid: body.uuid }, 'request failed');
  else request.log.info({ errorClass: body.error, status }, 'request refused');
  void reply.code(status).headers(headers).type('application/json; charset=utf-8').send(body);
}

/** One error handler for every route (and the 404 handler) of the app. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => send(request, reply, error));
}

/** For `frameworkErrors`: errors Fastify raises before routing (bad URL, bad headers). */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  send(request, reply, error);
}

export { send as sendError };
