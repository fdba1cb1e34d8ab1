import { DELIVERY_TOKEN_HEADER } from '@shared/contract/deliveries';
import { ONE_TIME_TOKEN_HEADERS } from '@shared/contract/link-token';
import { ROOM_LINK_PASSWORD_HEADER } from '@shared/contract/room-links';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { logSafePath, TOKEN_HEADER_LOG_PATHS } from './log-redaction';

describe('log redaction', () => {
  it('a log line carrying the request headers holds no delivery token, no one-time token and no room link password', async () => {
    const lines: string[] = [];
    // The app's request serializer drops headers; this is the net should a line ever carry them (raw req here).
    const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) }, redact: TOKEN_HEADER_LOG_PATHS, serializers: { req: (req) => ({ ...req }) } } });
    const tokens = [DELIVERY_TOKEN_HEADER, ...ONE_TIME_TOKEN_HEADERS, ROOM_LINK_PASSWORD_HEADER].map((name, i) => [name, `secret-token-${i}-${'x'.repeat(30)}`] as const);
    app.log.info({ req: { headers: { ...Object.fromEntries(tokens), accept: 'application/json' } } }, 'a request');
    await app.close();
    const log = lines.join('');
    expect(log).toContain('application/json'); // the line is there, with its headers
    for (const [name, token] of tokens) {
      expect(log, name).not.toContain(token);
      expect(log).toContain(`"${name}":"[Redacted]"`);
    }
  });

  it('token-like path segments are redacted; UUIDs stay', () => {
    const token = 'A'.repeat(43);
    expect(logSafePath(`/api/2/room-links/${token}/content?x=1`)).toBe('/api/2/room-links/[redacted]/content');
    expect(logSafePath('/api/2/rooms/0b6c1f39-5f4a-4bb0-9a35-0f5f8a1b2c3d')).toBe('/api/2/rooms/0b6c1f39-5f4a-4bb0-9a35-0f5f8a1b2c3d');
  });
});
