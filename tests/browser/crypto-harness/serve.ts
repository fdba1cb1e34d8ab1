// Builds the Chromium crypto harness with esbuild and serves it from a local static server on a
// random port (a real origin, so the module Worker and WebCrypto behave as in the product).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface CryptoHarnessServer {
  url: string;
  close(): Promise<void>;
}

export async function startCryptoHarness(): Promise<CryptoHarnessServer> {
  const outdir = mkdtempSync(join(tmpdir(), 'kuvert-crypto-harness-'));
  await build({
    entryPoints: { page: join(here, 'page-entry.ts'), worker: join(here, 'worker-entry.ts') },
    outdir,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    sourcemap: false,
    logLevel: 'warning',
    alias: { '@shared': join(root, 'shared') },
  });
  const files: Record<string, { type: string; body: Buffer | string }> = {
    '/': { type: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>crypto harness</title><script type="module" src="/page.js"></script>' },
    '/page.js': { type: 'text/javascript', body: readFileSync(join(outdir, 'page.js')) },
    '/worker.js': { type: 'text/javascript', body: readFileSync(join(outdir, 'worker.js')) },
  };
  const server = createServer((request, response) => {
    const file = files[(request.url ?? '/').split('?')[0] ?? '/'];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}
