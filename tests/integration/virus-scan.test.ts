// The virus scan against a REAL clamd (tests/support/clamd.ts starts one with a one-signature
// database): clean → downloadable and mailed; EICAR → blocked, never served, nobody mailed;
// clamd stopped or hung → "scan failed", blocked; scanning off → downloadable at once; a
// server restart in the middle of the queue → the job resumes. SQLite and PostgreSQL alike.
import { createHash, randomBytes } from 'node:crypto';
import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { DELIVERY_SETTING_KEYS, type ActivityEntry, type DeliveryDetail, type DeliveryPage, type DeliveryUploadFile } from '@shared/contract/deliveries';
import { DEFAULT_BLOCKED_EXTENSIONS, DEFAULT_BLOCKED_MIME_TYPES } from '@server/settings/defaults';
import { clamdUnavailable, EICAR, EICAR_SIGNATURE, startTestClamd, type TestClamd } from '@tests/support/clamd';
import { addressedTo, extractLink, readMailbox, waitForMailboxMail, type MailboxMail } from '@tests/support/mailbox';
import { ShareProofJar } from '@tests/support/share-proof';
import { startTestServer, type TestServer } from '@tests/support/server';
import type { KuvertConfigInput } from '@server/config';
import { openDatabase } from '@server/db/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { testFileBytes } from '@tests/support/files';

const skipReason = clamdUnavailable();
if (skipReason) console.warn(skipReason);

/** Small parts so the EICAR string can straddle two of them (the scan must see whole files). */
const PART_SIZE = 1024;
/** Fast retries and a short deadline; the product waits 30 s doubling, 60 s per scan. */
const SCAN_CONFIG = { uploadPartSize: PART_SIZE, scanAttempts: 3, scanRetryDelayMs: 150, clamdTimeoutMs: 1500, jobPollIntervalMs: 100 } satisfies KuvertConfigInput;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const api = (path: string) => `/api/2${path}`;

interface Actors {
  alice: Session; // sender
  bob: Session; // registered recipient
}

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function setUp(server: TestServer): Promise<Actors> {
  const admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test', firstName: 'Alice', lastName: 'Sender' });
  await createUserAsAdmin(server, admin, { email: 'bob@example.test' });
  return { alice: await signIn(server, 'alice@example.test', 'Good-Passw0rd'), bob: await signIn(server, 'bob@example.test', 'Good-Passw0rd') };
}

/** Draft → one file uploaded in parts → commit → send; answers the send response. */
async function sendWithFile(server: TestServer, sender: Session, options: { subject: string; level: 0 | 10; name: string; bytes: Uint8Array; mimeType?: string; afterCommit?: () => Promise<void> }) {
  const draft = await json<DeliveryDetail>(
    await call(server, sender, 'POST', api('/deliveries'), { recipients: ['bob@example.test'], subject: options.subject, body: 'Attached.', securityLevel: options.level }),
    201,
  );
  const file = await json<DeliveryUploadFile>(
    await call(server, sender, 'POST', api(`/deliveries/${draft.deliveryUuid}/files`), { name: options.name, size: options.bytes.length, mimeType: options.mimeType ?? 'application/pdf' }),
    201,
  );
  for (let i = 0; i < file.partCount; i++) {
    const part = options.bytes.subarray(i * file.partSize, (i + 1) * file.partSize);
    const response = await fetch(`${server.url}${api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/parts/${i}`)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'x-content-sha256': sha256(part), cookie: sender.cookie, [ANTI_CSRF_HEADER]: sender.csrf },
      body: new Blob([Uint8Array.from(part)]),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  await json(await call(server, sender, 'POST', api(`/deliveries/${draft.deliveryUuid}/files/${file.fileId}/commit`)), 200);
  await options.afterCommit?.();
  const sent = await json<DeliveryDetail>(await call(server, sender, 'POST', api(`/deliveries/${draft.deliveryUuid}/send`)), 200);
  return { sent, deliveryUuid: draft.deliveryUuid, fileId: file.fileId };
}

const detail = async (server: TestServer, session: Session, deliveryUuid: string) =>
  json<DeliveryDetail>(await call(server, session, 'GET', api(`/deliveries/${deliveryUuid}`)), 200);

/** Polls the sender's view until the review left `inProgress`. */
async function reviewOutcome(server: TestServer, sender: Session, deliveryUuid: string, timeoutMs = 20_000): Promise<DeliveryDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await detail(server, sender, deliveryUuid);
    if (current.reviewState !== 'inProgress') return current;
    if (Date.now() > deadline) throw new Error(`review of ${deliveryUuid} still in progress after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The file as a session, or as the holder of a level-1 link who confirmed the address at the email prompt. */
const content = (server: TestServer, session: Session | null, deliveryUuid: string, fileId: string, link?: { token: string; jar: ShareProofJar }) => {
  const url = `${server.url}${api(`/deliveries/${deliveryUuid}/files/${fileId}/content${link ? `?token=${encodeURIComponent(link.token)}` : ''}`)}`;
  return (link?.jar ?? new ShareProofJar(server.url)).fetch(url, { headers: session ? { cookie: session.cookie } : {} });
};

const mailsAbout = async (server: TestServer, to: string, subject: string) =>
  (await readMailbox(server.mailboxDir)).filter((m) => addressedTo(to)(m) && m.subject.includes(subject));

/** The download receipt to the sender (written after the response: wait for it before the folder goes). */
const receiptMail = (server: TestServer, subject: string) =>
  waitForMailboxMail(server.mailboxDir, (m) => addressedTo('alice@example.test')(m) && m.subject.includes(subject) && /downloaded|heruntergeladen/.test(m.subject));

/** The level-1 link of a mail to bob, confirmed at the email prompt. */
async function linkOf(server: TestServer, mail: MailboxMail): Promise<{ token: string; jar: ShareProofJar }> {
  const link = extractLink(mail, '/secumails/');
  const jar = new ShareProofJar(server.url);
  expect(await jar.confirm(link, 'bob@example.test')).toBe(200);
  return { token: new URLSearchParams(link.hash.slice(1)).get('token')!, jar };
}

/** The job row once the runner marked it failed (right after blocking the delivery). */
async function failedJob(server: TestServer) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const job = await server.app.db.selectFrom('jobs').selectAll().where('unique_key', 'is', null).where('state', '=', 'failed').executeTakeFirst();
    if (job) return job;
    if (Date.now() > deadline) throw new Error('no failed job');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function expectRefused(response: Response, reviewState: string, reason: string) {
  const error = await expectBackendError(response, 403, 'FileNotAllowedException');
  expect(error.metadata).toMatchObject({ reviewState, reason });
}

describe.skipIf(skipReason !== null)('virus scan with a real clamd', () => {
  let clamd: TestClamd;
  let server: TestServer;
  let actors: Actors;

  beforeAll(async () => {
    clamd = await startTestClamd();
    server = await startTestServer({ config: { ...SCAN_CONFIG, clamdAddress: clamd.socket } });
    actors = await setUp(server);
  });
  afterAll(async () => {
    await server?.close();
    await clamd?.dispose();
  });

  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('a clean file: in progress at send, nobody mailed before the verdict, then clean, mailed and downloadable bit-exact', async () => {
    const bytes = testFileBytes(5 * PART_SIZE + 77);
    const subject = 'Scan clean L1';
    const { sent, deliveryUuid, fileId } = await sendWithFile(server, actors.alice, { subject, level: 0, name: 'figures.pdf', bytes });
    expect(sent.reviewState).toBe('inProgress');
    expect(sent.attachmentsAvailable).toBe(false);
    expect(sent.files[0]!.scanState).toBe('scanning');
    // The mail goes out only after the clean verdict (the state is set before mailing).
    const outcome = await reviewOutcome(server, actors.alice, deliveryUuid);
    expect(outcome.reviewState).toBe('clean');
    expect(outcome.attachmentsAvailable).toBe(true);
    expect(outcome.files[0]!.scanState).toBe('clean');
    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('bob@example.test')(m) && m.subject.includes(subject));
    const download = await content(server, null, deliveryUuid, fileId, await linkOf(server, mail));
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
    await receiptMail(server, subject);
    const activity = await json<{ entries: ActivityEntry[] }>(await call(server, actors.alice, 'GET', api(`/deliveries/${deliveryUuid}/activity`)), 200);
    expect(activity.entries.map((e) => e.kind)).toEqual(expect.arrayContaining(['sent', 'reviewClean', 'notified']));
    // The job is done and gone.
    expect(await server.app.db.selectFrom('jobs').selectAll().where('unique_key', 'is', null).execute()).toEqual([]);
  });

  it('EICAR across a part boundary: blocked by the virus scanner, never downloadable, the recipient never mailed, the sender told', async () => {
    // The signature starts 30 bytes before the end of part 0: only a whole-file scan sees it.
    const bytes = Buffer.concat([testFileBytes(PART_SIZE - 30), EICAR, randomBytes(2 * PART_SIZE)]);
    const subject = 'Scan virus L2';
    const { deliveryUuid, fileId } = await sendWithFile(server, actors.alice, { subject, level: 10, name: 'invoice.pdf', bytes });
    const outcome = await reviewOutcome(server, actors.alice, deliveryUuid);
    expect(outcome.reviewState).toBe('blockedVirus');
    expect(outcome.attachmentsAvailable).toBe(false);
    expect(outcome.files[0]!.scanState).toBe('virusDetected');
    const row = await server.app.db.selectFrom('delivery_files').select(['scan_detail']).where('uuid', '=', fileId).executeTakeFirstOrThrow();
    expect(row.scan_detail).toContain(EICAR_SIGNATURE);

    // Nobody gets the bytes: the recipient, the sender, with or without a range.
    await expectRefused(await content(server, actors.bob, deliveryUuid, fileId), 'blockedVirus', 'virusDetected');
    await expectRefused(await content(server, actors.alice, deliveryUuid, fileId), 'blockedVirus', 'virusDetected');
    const ranged = await fetch(`${server.url}${api(`/deliveries/${deliveryUuid}/files/${fileId}/content`)}`, { headers: { cookie: actors.bob.cookie, range: 'bytes=0-9' } });
    await expectRefused(ranged, 'blockedVirus', 'virusDetected');

    // Listed with its review state on both sides.
    const inbox = await json<DeliveryPage>(await call(server, actors.bob, 'GET', api('/deliveries/inbox')), 200);
    expect(inbox.items.find((d) => d.deliveryUuid === deliveryUuid)).toMatchObject({ reviewState: 'blockedVirus', attachmentsAvailable: false });
    const sentList = await json<DeliveryPage>(await call(server, actors.alice, 'GET', api('/deliveries/sent')), 200);
    expect(sentList.items.find((d) => d.deliveryUuid === deliveryUuid)).toMatchObject({ reviewState: 'blockedVirus' });

    // The sender is mailed; the recipient is not, and cannot be notified by hand either.
    await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('alice@example.test')(m) && m.subject.includes(subject) && /blocked/.test(m.subject));
    expect(await mailsAbout(server, 'bob@example.test', subject)).toEqual([]);
    await expectBackendError(await call(server, actors.alice, 'POST', api(`/deliveries/${deliveryUuid}/resend-notification`), {}), 409, 'ConflictException');
    const activity = await json<{ entries: ActivityEntry[] }>(await call(server, actors.alice, 'GET', api(`/deliveries/${deliveryUuid}/activity`)), 200);
    expect(activity.entries.find((e) => e.kind === 'reviewBlocked')?.detail).toContain('blockedVirus');
  });

  it('a program disguised as a PDF, committed before its type was blocked: blocked by the scan\'s MIME type check', async () => {
    const bytes = Buffer.concat([Buffer.from('MZ'), randomBytes(600)]);
    const subject = 'Scan disguised';
    // The commit refuses a blocked type from the bytes (deliveries.test.ts); here the policy blocks programs only after the commit.
    const blocked = { [DELIVERY_SETTING_KEYS.blockedExtensions]: DEFAULT_BLOCKED_EXTENSIONS, [DELIVERY_SETTING_KEYS.blockedMimeTypes]: DEFAULT_BLOCKED_MIME_TYPES };
    await server.app.settings.set({ [DELIVERY_SETTING_KEYS.blockedExtensions]: 'bat', [DELIVERY_SETTING_KEYS.blockedMimeTypes]: '' });
    const { deliveryUuid, fileId } = await sendWithFile(server, actors.alice, { subject, level: 10, name: 'report.pdf', bytes, afterCommit: () => server.app.settings.set(blocked) }).finally(() => server.app.settings.set(blocked));
    const outcome = await reviewOutcome(server, actors.alice, deliveryUuid);
    expect(outcome.reviewState).toBe('blockedMime');
    await expectRefused(await content(server, actors.bob, deliveryUuid, fileId), 'blockedMime', 'mimeTypeMismatch');
    expect(await mailsAbout(server, 'bob@example.test', subject)).toEqual([]);
  });

  it('clamd stopped: retried, then blocked as "scan failed", never clean, never mailed', async () => {
    await clamd.stop();
    try {
      const subject = 'Scan down';
      const { sent, deliveryUuid, fileId } = await sendWithFile(server, actors.alice, { subject, level: 10, name: 'a.pdf', bytes: testFileBytes(3000) });
      expect(sent.reviewState).toBe('inProgress');
      // While retrying: listed, in progress, not downloadable.
      await expectRefused(await content(server, actors.bob, deliveryUuid, fileId), 'inProgress', 'scanInProgress');
      const outcome = await reviewOutcome(server, actors.alice, deliveryUuid);
      expect(outcome.reviewState).toBe('blockedReviewerFailed');
      expect(outcome.files[0]!.scanState).toBe('error');
      await expectRefused(await content(server, actors.bob, deliveryUuid, fileId), 'blockedReviewerFailed', 'scanFailed');
      const job = await failedJob(server);
      expect(job.attempts).toBe(SCAN_CONFIG.scanAttempts);
      expect(job.last_error).toMatch(/clamd connection failed/);
      expect(await mailsAbout(server, 'bob@example.test', subject)).toEqual([]);
      await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('alice@example.test')(m) && m.subject.includes(subject));
    } finally {
      await clamd.start();
      await server.app.db.deleteFrom('jobs').where('unique_key', 'is', null).execute();
    }
  });

  it('clamd hung (accepts, never answers): each scan times out, then "scan failed"', async () => {
    clamd.freeze();
    try {
      const { deliveryUuid } = await sendWithFile(server, actors.alice, { subject: 'Scan hung', level: 0, name: 'b.pdf', bytes: testFileBytes(2000) });
      const outcome = await reviewOutcome(server, actors.alice, deliveryUuid);
      expect(outcome.reviewState).toBe('blockedReviewerFailed');
      const job = await failedJob(server);
      expect(job.last_error).toMatch(/did not answer within/);
    } finally {
      clamd.thaw();
      await server.app.db.deleteFrom('jobs').where('unique_key', 'is', null).execute();
    }
  });

  it('the same clamd over TCP (tcp://host:port) scans too', async () => {
    const tcpServer = await startTestServer({ config: { ...SCAN_CONFIG, clamdAddress: clamd.tcpAddress } });
    try {
      const tcpActors = await setUp(tcpServer);
      const { deliveryUuid } = await sendWithFile(tcpServer, tcpActors.alice, { subject: 'Scan over TCP', level: 10, name: 'c.pdf', bytes: Buffer.concat([EICAR, randomBytes(100)]) });
      expect((await reviewOutcome(tcpServer, tcpActors.alice, deliveryUuid)).reviewState).toBe('blockedVirus');
    } finally {
      await tcpServer.close();
    }
  });

  it('a server restart in the middle of the queue: the job resumes on the next start', async () => {
    await clamd.stop();
    // Long enough between attempts that the first server is gone before its retry.
    const config = { ...SCAN_CONFIG, clamdAddress: clamd.socket, scanRetryDelayMs: 1000 };
    let first: TestServer | null = await startTestServer({ config });
    let second: TestServer | null = null;
    try {
      const firstActors = await setUp(first);
      const bytes = testFileBytes(4000);
      const subject = 'Scan resumed';
      const { deliveryUuid, fileId } = await sendWithFile(first, firstActors.alice, { subject, level: 0, name: 'd.pdf', bytes });
      // Wait for the first (failed) attempt, then stop this server with the job still queued.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const job = await first.app.db.selectFrom('jobs').select(['attempts', 'state']).where('unique_key', 'is', null).executeTakeFirst();
        if (job?.attempts === 1 && job.state === 'pending') break;
        if (Date.now() > deadline) throw new Error('the first attempt did not fail in time');
        await new Promise((r) => setTimeout(r, 50));
      }
      const reuse = { dataDir: first.dataDir, databaseSchema: first.databaseSchema };
      await first.close({ keepData: true });
      first = null;

      await clamd.start();
      second = await startTestServer({ config, reuse });
      const alice = await signIn(second, 'alice@example.test', 'Good-Passw0rd');
      const outcome = await reviewOutcome(second, alice, deliveryUuid);
      expect(outcome.reviewState).toBe('clean');
      const mail = await waitForMailboxMail(second.mailboxDir, (m) => addressedTo('bob@example.test')(m) && m.subject.includes(subject));
      const download = await content(second, null, deliveryUuid, fileId, await linkOf(second, mail));
      expect(download.status).toBe(200);
      expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
      await receiptMail(second, subject);
      expect(await second.app.db.selectFrom('jobs').selectAll().where('unique_key', 'is', null).execute()).toEqual([]);
    } finally {
      await first?.close();
      await second?.close();
      await clamd.start();
    }
  });

  it('a server stopped while its scan runs hands the job back; the next server finishes it', async () => {
    clamd.freeze(); // accepts the connection, never answers: the scan hangs until the server stops
    const config = { ...SCAN_CONFIG, clamdAddress: clamd.socket, clamdTimeoutMs: 20_000 };
    let first: TestServer | null = await startTestServer({ config });
    let second: TestServer | null = null;
    try {
      const firstActors = await setUp(first);
      const subject = 'Scan handed back';
      const { deliveryUuid } = await sendWithFile(first, firstActors.alice, { subject, level: 10, name: 'f.pdf', bytes: testFileBytes(3000) });
      const deadline = Date.now() + 10_000;
      while ((await first.app.db.selectFrom('jobs').select('state').where('unique_key', 'is', null).executeTakeFirst())?.state !== 'running') {
        if (Date.now() > deadline) throw new Error('the scan did not start');
        await new Promise((r) => setTimeout(r, 20));
      }
      const reuse = { dataDir: first.dataDir, databaseSchema: first.databaseSchema };
      await first.close({ keepData: true });
      first = null;
      // Handed back unharmed: pending, the interrupted attempt not counted, nobody holding it
      // (read straight from the database: a server would claim it at once).
      const database = await openDatabase({ databaseUrl: process.env.KUVERT_TEST_DATABASE_URL || undefined, dataDir: reuse.dataDir, databaseSchema: reuse.databaseSchema, poolSize: 1 });
      try {
        const job = await database.db.selectFrom('jobs').selectAll().where('unique_key', 'is', null).executeTakeFirstOrThrow();
        expect(job).toMatchObject({ state: 'pending', attempts: 0, locked_by: null });
      } finally {
        await database.close();
      }

      clamd.thaw();
      second = await startTestServer({ config, reuse });
      const alice = await signIn(second, 'alice@example.test', 'Good-Passw0rd');
      expect((await reviewOutcome(second, alice, deliveryUuid)).reviewState).toBe('clean');
      await waitForMailboxMail(second.mailboxDir, (m) => addressedTo('bob@example.test')(m) && m.subject.includes(subject));
    } finally {
      clamd.thaw();
      await first?.close();
      await second?.close();
    }
  });
});

describe('scanning off (no KUVERT_CLAMD)', () => {
  let server: TestServer;
  let actors: Actors;
  beforeAll(async () => {
    server = await startTestServer({ config: { uploadPartSize: PART_SIZE } });
    actors = await setUp(server);
  });
  afterAll(() => server?.close());

  it('attachments are "not scanned", downloadable and mailed at once', async () => {
    const bytes = testFileBytes(2500);
    const subject = 'No scan';
    const { sent, deliveryUuid, fileId } = await sendWithFile(server, actors.alice, { subject, level: 10, name: 'e.pdf', bytes });
    expect(sent.reviewState).toBe('notReviewed');
    expect(sent.attachmentsAvailable).toBe(true);
    expect(sent.files[0]!.scanState).toBe('notScanned');
    expect(await mailsAbout(server, 'bob@example.test', subject)).toHaveLength(1);
    const download = await content(server, actors.bob, deliveryUuid, fileId);
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
    expect(await server.app.db.selectFrom('jobs').selectAll().where('unique_key', 'is', null).execute()).toEqual([]);
    await receiptMail(server, subject);
  });
});
