// throwaway: profile s3rver during downloads only
import { spawn } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createS3BlobStore } from '@server/storage/s3-blob-store';
import { partsRangeReader } from '@server/uploads/bytes';
const phase = process.env.PHASE ?? 'down';
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/s3prof', '--import', 'tsx', 'tests/multi-server/s3-process.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise<any>((resolve) => { let out = ''; child.stdout!.on('data', (c) => { out += c; if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n')))); }); });
const store = createS3BlobStore({ endpoint: info.endpoint, bucket: info.bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
const part = randomBytes(4 * 1048576 + 4096); const sha = createHash('sha256').update(part).digest('hex');
const N = 64;
const body = () => Readable.from((function* () { for (let i = 0; i < part.length; i += 65536) yield part.subarray(i, i + 65536); })(), { objectMode: false });
let t = performance.now();
for (let i = 0; i < N; i++) await store.put(`p/${i}`, body(), { expectedSize: part.length, expectedSha256: sha });
console.log('up', (N * part.length / 1048576 / ((performance.now() - t) / 1000)).toFixed(1));
await new Promise((r) => setTimeout(r, 300));
const markAt = Date.now();
t = performance.now();
const size = N * part.length;
for (let r = 0; r < 3; r++) {
  const reader = partsRangeReader(store, { size, partSize: part.length, partCount: N, leadingBytes: 0 }, (i) => `p/${i}`, 0, size - 1)!;
  const buf = Buffer.allocUnsafeSlow(262144);
  while ((await reader.read(buf)) > 0);
  await reader.close();
}
console.log('down', (3 * size / 1048576 / ((performance.now() - t) / 1000)).toFixed(1), 'mark', markAt);
store.close(); child.kill('SIGTERM'); await new Promise((r) => child.once('exit', r));
