import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { getSendConfig } from '@shared/api/endpoints/send-config';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { createSendController, deliverWithEngine, type SendControllerFile } from '@shared/send/send-controller';
import { downloadE2eFile, openE2eDelivery } from '@shared/transfer';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, signIn, signInAdmin, type Session } from './core-helpers';
import { e2eActor, e2eOf, giveSecuPass, type E2eActor } from './e2e-helpers';
import { testFileBytes } from '@tests/support/files';

/**
 * The headless send controller (shared/send) with its engine deliver step against the real server
 * and the real crypto service (the code the browser Worker runs): what the web send page and the
 * add-in send screen do, without a screen.
 */

let server: TestServer;
let admin: Session;
let alice: E2eActor; // sender
let bob: E2eActor; // recipient

type PickedFile = SendControllerFile & { bytes: Uint8Array };
const picked = (name: string, size: number): PickedFile => ({ name, size, type: 'application/octet-stream', bytes: new Uint8Array(testFileBytes(size)) });

async function controllerFor(sender: E2eActor, initial: Parameters<typeof createSendController<PickedFile>>[0]['initial']) {
  return createSendController<PickedFile>({ config: await getSendConfig(sender.client), initial, language: () => 'de' });
}

const engineFor = (sender: E2eActor) =>
  deliverWithEngine<PickedFile>({
    client: sender.client,
    crypto: sender.crypto,
    sources: async (files) => files.map((f) => ({ name: f.name, blob: new Blob([f.bytes as Uint8Array<ArrayBuffer>]), mimeType: f.type })),
  });

/** A signed-in user with a SecuPass (real Argon2id, real key pairs), as its own "browser". */
async function userWithSecuPass(email: string, passphrase: string): Promise<E2eActor> {
  await createUserAsAdmin(server, admin, { email });
  const actor = await e2eActor(server, await signIn(server, email, 'Good-Passw0rd'));
  await giveSecuPass(actor, passphrase);
  return actor;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  [alice, bob] = [await userWithSecuPass('alice@example.test', 'Alice-Controller-SecuPass-51'), await userWithSecuPass('bob@example.test', 'Bob-Controller-SecuPass-52')];
}, 90_000);
afterAll(() => server?.close());

describe('send controller + engine on the real server', () => {
  it('level 2: sends the draft with its files, progress climbs to 100, the delivery is what the form held', async () => {
    const file = picked('Bericht März.bin', 3000);
    const controller = await controllerFor(alice, { recipients: ['bob@example.test'], subject: 'Figures', body: 'See attached.', files: [file], level: SECURITY_LEVELS.LEVEL_2, validityText: '5' });
    const percents: number[] = [];
    controller.subscribe(() => percents.push(controller.getState().progress?.percent ?? -1));
    const outcome = await controller.submit({ unlockKeys: async () => Promise.reject(new Error('no keys at level 2')), deliver: engineFor(alice) });
    expect(outcome.kind).toBe('sent');
    const state = controller.getState();
    expect(state.phase).toBe('sent');
    expect(state.progress?.percent).toBe(100);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(state.delivery).toMatchObject({ subject: 'Figures', securityLevel: SECURITY_LEVELS.LEVEL_2 });
    expect(state.delivery?.files?.map((f) => f.name)).toEqual(['Bericht März.bin']);
  });

  it('level 3: asks for the keys, encrypts through the crypto service, and the recipient decrypts identical bytes', async () => {
    const file = picked('secret.bin', 5000);
    const controller = await controllerFor(alice, { recipients: ['bob@example.test'], subject: 'Encrypted', files: [file], level: SECURITY_LEVELS.LEVEL_3 });
    expect(controller.getState().needsKeys).toBe(true);
    let asked = 0;
    const outcome = await controller.submit({
      unlockKeys: async () => {
        asked++;
        return alice.keys ?? null;
      },
      deliver: engineFor(alice),
    });
    expect(asked).toBe(1);
    if (outcome.kind !== 'sent') throw new Error(`not sent: ${JSON.stringify(outcome)}`);
    const opened = await openE2eDelivery({ client: bob.client, deliveryUuid: outcome.delivery.deliveryUuid, e2e: e2eOf(bob) });
    expect(opened.files.map((f) => f.name)).toEqual(['secret.bin']);
    const blob = await downloadE2eFile({
      delivery: opened,
      fileId: opened.files[0]!.fileId,
      crypto: bob.crypto,
      url: deliveryContentUrl(outcome.delivery.deliveryUuid, opened.files[0]!.fileId, null, server.url),
      fetch: bob.fetch,
    });
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(file.bytes);
  });

  it("a server refusal ends failed with its §8 error; the form's own problems never reach the server", async () => {
    const controller = await controllerFor(alice, { recipients: [], subject: 'x', files: [picked('tool.bin', 10)], level: SECURITY_LEVELS.LEVEL_2 });
    expect(await controller.submit({ unlockKeys: async () => null, deliver: engineFor(alice) })).toMatchObject({ kind: 'invalid' });
    expect(controller.getState().phase).toBe('editing');

    // The administrator forbids the type after the form loaded its send config: only the server knows.
    const blocked = await call(server, admin, 'PUT', '/api/2/admin/settings', { [DELIVERY_SETTING_KEYS.blockedExtensions]: 'bin' });
    expect(blocked.status).toBeLessThan(300);
    try {
      controller.update({ recipients: ['bob@example.test'] });
      const outcome = await controller.submit({ unlockKeys: async () => null, deliver: engineFor(alice) });
      expect(outcome).toMatchObject({ kind: 'failed', error: { code: 'fileNotAllowed', errorClass: 'FileNotAllowedException' } });
      expect(controller.getState()).toMatchObject({ phase: 'failed', error: { code: 'fileNotAllowed' } });
    } finally {
      await call(server, admin, 'PUT', '/api/2/admin/settings', { [DELIVERY_SETTING_KEYS.blockedExtensions]: '' });
    }
  });
});
