// Issue 35 §5: "where a figure still misses, the report says which CPU-seconds the scheme still
// costs and where". Each entry is what the step-by-step measurements named in the doc it cites
// found (those docs hold the method, the load and the dates); `npm run bench` attaches it to a
// figure that misses, as `stillCosts`, and prints it under the MISS line. A figure that misses
// without an entry says so too, so a new miss cannot hide behind the others' explanations.
import type { Figure } from './report';

interface StillCosts {
  /** The figure's name, or the start of it (names that carry a size). */
  name: string;
  text: string;
}

const ROOM_UPLOAD =
  'Per GiB beyond a plain room upload, in the crypto Worker (shared/transfer/README "Copies on an E2E upload", ' +
  'measured step by step with tests/bench/upload-copies.ts): the content commitment\'s per-record SHA-256 ~0.7–1.0, ' +
  'AES-GCM with WebCrypto\'s copy in and fresh buffer out ~0.75–0.8, the records into the reused part buffer ~0.15, ' +
  'the part into the Blob that is the PUT body ~1.3–1.4 — ≈ 3.0–3.2 CPU-s before the rest: page faults of fresh ' +
  'memory (~1.07 million minor faults per GiB on the Worker\'s thread, half its samples in the kernel: Chromium maps ' +
  'each 4 MiB read, WebCrypto digest copy and Blob copy fresh) and SHA-256 running scalar on the Worker\'s thread ' +
  '(shared/transfer/README "Where the rest of the room upload\'s figure goes"). Both rooms are CPU-bound on 2 cores ' +
  'shared with the in-process server, so the MiB/s ratio follows the total CPU.';

const DELIVERY_UPLOAD =
  'Per GiB beyond level 1, in the crypto Worker (shared/transfer/README "Copies on an E2E upload"): AES-GCM with ' +
  'WebCrypto\'s copy in and fresh buffer out ~0.75, the records into the reused part buffer ~0.15, the part into the ' +
  'Blob that is the PUT body ~1.4 — ≈ 2.3 CPU-s, more with the cores shared (the same code measured 1.88 and 3.23 ' +
  'at load 2–7 and 8–14); the MiB/s ratio follows the total CPU of browser and server on 2 cores.';

const DELIVERY_DOWNLOAD =
  'Per GiB beyond a plain <a download>, in the download service worker (web/README "Downloads", "Where the service ' +
  'worker\'s CPU goes", each step switched off in turn): the JS hop itself — the response stream out ~1.3 and the ' +
  'fetched body in ~1.3 — before any crypto, a fresh buffer per record (WebCrypto\'s output) ~0.7, AES-GCM ~0.4. ' +
  'The hop alone is ~2.6 of the ≤ 3.0; the MiB/s ratio follows the total CPU of browser and server on 2 cores.';

const CRYPTO_STREAM =
  'The coders alone (StreamEncoder / StreamDecoder, same chunks) run at raw WebCrypto speed: 0.97–1.08 of raw in ' +
  'wall time, 0.86–1.03 in CPU. What the stream adds is the WHATWG TransformStream hop, 10–28 µs CPU per chunk ' +
  'against ~400 µs of AES-GCM per 512 KiB record; the product\'s large transfers do not take that hop (downloads use ' +
  'StreamDecoder, uploads sealRecordRun). shared/crypto/README "Cost against raw WebCrypto".';

const ENTRIES: StillCosts[] = [
  {
    name: 'server: GET /user',
    text:
      'Server CPU per request (tests/bench/server-cpu.ts, server-bisect.ts, a V8 profile; server/README "Per-request ' +
      'cost of a signed-in call", 2026-11-30): bare hello 18–27 µs, GET /user 52–57 µs — the session look-up ~12–16 ' +
      '(its first SQLite read runs on cold CPU caches; 5 µs in a tight loop; nothing may be cached across requests), ' +
      'cookie and security headers ~5–8, the socket idle timer ~3.5 (it ends stalled downloads), roles ~1.5, garbage ' +
      'collection 1–2, ~7 unexplained. The server\'s own CPU ratio is ~0.35–0.46; autocannon runs in the same process ' +
      'on the same 2 cores, so the req/s ratio moves with the load more than with the code.',
  },
  { name: 'crypto.stream.', text: CRYPTO_STREAM },
  {
    name: 'transfer.upload.engine_vs_raw_puts',
    text:
      'The engine hashes every part for x-content-sha256 (WebCrypto\'s SHA-256 in Node) while the raw PUTs get their ' +
      'hashes computed before the clock starts: measured 2026-11-30 at load ~9, the bench process spent 2.8–4.6 CPU-s ' +
      'per 256 MiB for the engine against 1.6–2.7 for the raw PUTs — the ~1.2 s difference is that hash (~4.7 CPU-s ' +
      'per GiB at this machine\'s ~480 MB/s), taken from the 2 cores the server uploads on.',
  },
  {
    name: 'transfer.upload.e2e_vs_plain',
    text:
      'Level 3 adds AES-GCM (Node\'s WebCrypto, 512 KiB records) and the part assembly to the same hashed PUTs: ' +
      '+1.0–1.6 CPU-s per 256 MiB in the bench process (2026-11-30, load ~9), on the 2 cores the server shares.',
  },
  { name: 'rooms.e2e.upload', text: ROOM_UPLOAD },
  {
    name: 'rooms.e2e.download',
    text:
      'Not CPU: the browser\'s CPU for the E2E room download is level with the plain one (E2E minus plain −1.3 to ' +
      '+1.4 CPU-s per GiB, 2026-11-30, 1 GiB, load 1–3; the plain room\'s download through the transfer centre\'s ' +
      'port path costs ~6.8 per GiB itself), yet it took 8.1–9.9 s against 6.8–7.1 s (ratios 0.87 and 0.69). ' +
      'Where the wall time goes (the service worker\'s start and key hand-over, its fetch-decrypt-respond chain ' +
      'waiting on one another) is not measured step by step yet.',
  },
  { name: 'upload_browser.', text: DELIVERY_UPLOAD },
  { name: 'download.browser_cpu', text: DELIVERY_DOWNLOAD },
  { name: 'download.e2e_vs_', text: DELIVERY_DOWNLOAD },
  {
    name: 'download.e2e.browser_memory_growth',
    text:
      'The growth is a one-time start-up, not bytes held (web/README "Downloads", RSS sampled per process): Chromium ' +
      'starts the service worker in its spare renderer process (~81 MiB idle) and at once launches a new spare ' +
      'renderer (+81 MiB); the page\'s, the browser\'s and the network process\'s RSS stay flat, and a second download ' +
      'through the running worker grows the sum by ~62 MiB (the second round\'s note).',
  },
  {
    name: 'E2E room ZIP browser memory growth',
    text:
      'The file\'s own E2E download (the baseline) already grows past 100 MiB here: the bench\'s Node helper seals ' +
      '1 KiB records, i.e. ~300 000 port chunks per 300 MiB that the renderer frees only at a major GC (the web ' +
      'client\'s own uploads use 512 KiB records); the ZIP adds ~47 MiB to that (README "e2e-zip").',
  },
  {
    name: 's3-store: S3 store / raw s3rver',
    text:
      'The baseline is plain node:http PUTs and GETs (no SDK, no signing, no hash). Downloads are level; our part PUT ' +
      'costs 0.48–0.56 CPU-s per 256 MiB against 0.09 for the plain PUT: the AWS SDK\'s signed request and stream ' +
      'handling and our SHA-256 check of each part (server/README "Storage", 2026-11-30).',
  },
  {
    name: "scale: Kuvert's S3 path",
    text:
      'Downloads wait for s3rver\'s 64 KiB file reads (the reader waits for nearly every chunk); our CPU is 0.08 s per ' +
      '64 MiB like the bare SDK\'s, plus one copy into the pooled response buffers (~0.02 s). Streaming the next whole ' +
      'part ahead (two GETs, as the raw client does) gained 0.89–1.24 in paired rounds but would let a stalled download ' +
      'hold up to 8 MiB instead of 128 KiB per open part (server/README "Storage").',
  },
  {
    name: 'inbox.',
    text:
      'At full size (100 000 / 1 000) every variant met on SQLite and PostgreSQL (0.72–1.32, server/README "Lists"); ' +
      'the --quick size (10 000 / 1 000, 40 samples) is too small for its p95 to mean much.',
  },
];

/** `figure` with `stillCosts` when it misses (and an entry or a "no entry" line says why). */
export function withStillCosts(figure: Figure): Figure {
  if (figure.pass) return figure;
  const entry = ENTRIES.find((e) => figure.name.startsWith(e.name));
  return {
    ...figure,
    stillCosts: entry?.text ?? 'No step-by-step measurement names this miss yet (tests/bench/still-costs.ts has no entry for it).',
  };
}
