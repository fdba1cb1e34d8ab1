import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listMailboxMessages } from '../mail/mailbox-folder';
import { createSmsGateway, SmsDeliveryError } from './sms-gateway';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kuvert-sms-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A local stand-in for a provider's HTTP API: answers the given statuses in turn. */
async function gatewayServer(statuses: number[]) {
  const received: Array<{ body: unknown; authorization: string | undefined }> = [];
  const server = createServer((request: IncomingMessage, response) => {
    let data = '';
    request.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ body: JSON.parse(data), authorization: request.headers.authorization });
      response.statusCode = statuses.shift() ?? 200;
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('SMS gateway', () => {
  it('by default writes each SMS next to the mails, listed like them', async () => {
    const dir = await folder();
    const gateway = createSmsGateway({ mailboxFolder: dir });
    expect(gateway.kind).toBe('mailbox');
    const sent = await gateway.send({ to: '+49123456789', text: 'Your code: 123456' });
    expect(await readFile(join(dir, `${sent.mailboxId}.sms`), 'utf8')).toBe('Your code: 123456');
    expect(await listMailboxMessages(dir)).toEqual([expect.objectContaining({ id: sent.mailboxId, to: '+49123456789', kind: 'sms', text: 'Your code: 123456' })]);
  });

  it('with a gateway URL posts {to, text} as JSON, credentials as Basic, retrying a failure', async () => {
    const remote = await gatewayServer([503, 200]);
    const url = new URL(remote.url);
    url.username = 'kuvert';
    url.password = 's3cret';
    const gateway = createSmsGateway({ mailboxFolder: await folder(), gatewayUrl: url.href, retryBaseDelayMs: 1 });
    expect(gateway.kind).toBe('http');
    await gateway.send({ to: '+49123456789', text: 'Code 654321' });
    expect(remote.received).toHaveLength(2);
    expect(remote.received[1]).toEqual({ body: { to: '+49123456789', text: 'Code 654321' }, authorization: `Basic ${Buffer.from('kuvert:s3cret').toString('base64')}` });
  });

  it('gives up after the attempts with an error that names neither the number nor the text', async () => {
    const remote = await gatewayServer([500, 500]);
    const gateway = createSmsGateway({ mailboxFolder: await folder(), gatewayUrl: remote.url, maxAttempts: 2, retryBaseDelayMs: 1 });
    const failure = await gateway.send({ to: '+49123456789', text: 'Code 111222' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SmsDeliveryError);
    expect(String((failure as Error).message)).not.toMatch(/123456789|111222/);
    expect(remote.received).toHaveLength(2);
  });
});
