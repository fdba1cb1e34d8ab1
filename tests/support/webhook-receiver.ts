import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: its headers and body as text. */
export interface ReceivedHook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  received: ReceivedHook[];
  /** Statuses still to answer, in order; 200 once they are used up. */
  script: number[];
  close: () => Promise<void>;
}

/**
 * A real local HTTP receiver for Flows webhooks (a form's process service) in tests: it keeps every
 * request and answers the statuses in `script` in order (200 once they are used up), so a test can
 * make a webhook fail and then succeed. The test server must allow 127.0.0.1 over http
 * (`outboundAllow: ['127.0.0.1'], outboundAllowHttp: true`).
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const script: number[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = script.shift() ?? 200;
      // Words the server must never show back (it keeps only the status code).
      response.end('receiver-internal-answer');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    script,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
