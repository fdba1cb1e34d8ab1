import { badRequest } from '../core/http-error';

export interface BasicCredentials {
  login: string;
  password: string;
}

/** Longer headers are refused before decoding: no login needs more. */
const MAX_HEADER_LENGTH = 4096;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Parses `Authorization: Basic base64(login:password)` (RFC 7617, UTF-8).
 * Returns null when there is no Basic header; a malformed one is a 400.
 */
export function parseBasicCredentials(header: string | undefined): BasicCredentials | null {
  if (header === undefined || header.trim() === '') return null;
  if (header.length > MAX_HEADER_LENGTH) throw badRequest('Malformed Authorization header');
  const match = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1] || !BASE64.test(match[1]) || match[1].length % 4 !== 0) throw badRequest('Malformed Authorization header');
  const bytes = Uint8Array.from(atob(match[1]), (c) => c.charCodeAt(0));
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('Malformed Authorization header');
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) throw badRequest('Malformed Authorization header');
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
