import type { DeliverySendConfig } from '@shared/contract/config';
import { MS_PER_DAY, SECURITY_LEVELS } from '@shared/contract/constants';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import { createCryptoService, type UnlockedKeys } from '@shared/crypto/service';
import { toSendError } from '@shared/deliveries/send-errors';
import { sendConfigFixture } from '@shared/rules/test-fixtures';
import { describe, expect, it } from 'vitest';
import { createSendController, parseValidityText, type DeliverRequest, type SubmitSteps } from './send-controller';

const config = (patch: Partial<DeliverySendConfig> = {}): DeliverySendConfig =>
  sendConfigFixture({
    allowSecurityLevel1: false,
    deliveryCleanupExpirationMax: 30 * MS_PER_DAY,
    filePolicy: { blockedExtensions: ['exe'], blockedMimeTypes: [] },
    ...patch,
  });
const { LEVEL_1: L1, LEVEL_2: L2, LEVEL_3: L3, LEVEL_4: L4 } = SECURITY_LEVELS;
const file = (name: string, size = 10, type = 'text/plain') => ({ name, size, type });
const delivery = { deliveryUuid: 'd-1' } as DeliveryDetail;

/** Steps that record what they were asked; `keys` is what the passphrase dialog answers. */
function recordingSteps(keys: UnlockedKeys | null, answer: Awaited<ReturnType<SubmitSteps['deliver']>> = { ok: true, delivery }) {
  const delivered: DeliverRequest[] = [];
  let unlockAsked = 0;
  const steps: SubmitSteps = {
    unlockKeys: async () => {
      unlockAsked++;
      return keys;
    },
    deliver: async (request) => {
      delivered.push(request);
      request.report({ phase: 'uploading', files: [], bytesSent: 5, totalBytes: 10, percent: 50 });
      return answer;
    },
  };
  return { steps, delivered, unlockAsked: () => unlockAsked };
}

describe('send controller', () => {
  it('preselects the minimal allowed level and keeps a prefilled one only when allowed', () => {
    expect(createSendController({ config: config() }).getState()).toMatchObject({ allowedLevels: [L2, L3, L4], fields: { level: L2 }, needsKeys: false });
    expect(createSendController({ config: config(), initial: { level: L4 } }).getState()).toMatchObject({ fields: { level: L4 }, needsKeys: true });
    expect(createSendController({ config: config(), initial: { level: L1 } }).getState().fields.level).toBe(L2);
  });

  it('checks the §5 rules as the fields change: file rules at once, the others once sending was tried', () => {
    const controller = createSendController({ config: config() });
    const seen: number[] = [];
    controller.subscribe(() => seen.push(controller.getState().problems.length));
    expect(controller.getState().submitted).toBe(false);
    expect(controller.getState().problems.map((p) => p.code)).toEqual(expect.arrayContaining(['recipientsRequired', 'subjectRequired']));

    controller.addFiles([file('setup.exe'), file('notes.txt')]);
    expect(controller.getState().fileProblems).toEqual([expect.objectContaining({ code: 'blockedFileType', name: 'setup.exe' })]);
    controller.removeFile(0);
    expect(controller.getState().fileProblems).toEqual([]);
    expect(controller.getState().fields.files.map((f) => f.name)).toEqual(['notes.txt']);

    controller.update({ recipients: ['not an address'], subject: 'Hi' });
    expect(controller.validate().map((p) => p.code)).toEqual(['invalidEmail']);
    expect(controller.getState().submitted).toBe(true);
    controller.update({ recipients: ['bob@example.test'] });
    expect(controller.validate()).toEqual([]);
    expect(seen.length).toBeGreaterThanOrEqual(5);
  });

  it('turns the validity text into the draft: empty = default, a number within the range, anything else a problem', () => {
    expect(parseValidityText('')).toBeUndefined();
    expect(parseValidityText(' 7 ')).toBe(7);
    expect(parseValidityText('7.5')).toBe(-1);
    const controller = createSendController({ config: config(), initial: { recipients: ['bob@example.test'], subject: 'S', files: [file('a.txt')] }, language: () => 'fr' });
    expect(controller.draft()).toEqual({ recipients: ['bob@example.test'], subject: 'S', body: '', securityLevel: L2, language: 'fr' });
    controller.update({ validityText: '7' });
    expect(controller.draft().validityDays).toBe(7);
    controller.update({ validityText: '99' });
    expect(controller.validate()).toEqual([{ code: 'validityOutOfRange', field: 'validityDays', min: 1, max: 30 }]);
    // A fixed validity is not the sender's to choose: the text is ignored.
    const fixed = createSendController({ config: config({ deliveryCleanupCustomExpiration: false }), initial: { validityText: '3' } });
    expect(fixed.getState().validity.kind).toBe('fixed');
    expect(fixed.draft().validityDays).toBeUndefined();
  });

  it('refuses an invalid form without asking for keys or delivering', async () => {
    const controller = createSendController({ config: config(), initial: { level: L3 } });
    const { steps, delivered, unlockAsked } = recordingSteps(null);
    const outcome = await controller.submit(steps);
    expect(outcome.kind).toBe('invalid');
    expect(unlockAsked()).toBe(0);
    expect(delivered).toEqual([]);
    expect(controller.getState().phase).toBe('editing');
  });

  it('levels 1/2: delivers the draft without keys, follows the progress and ends sent', async () => {
    const controller = createSendController({ config: config(), initial: { recipients: ['bob@example.test'], additionalRecipients: ['cc@example.test'], subject: 'S', body: 'B', files: [file('a.txt')] } });
    const phases: string[] = [];
    controller.subscribe(() => phases.push(`${controller.getState().phase}:${controller.getState().progress?.percent ?? '-'}`));
    const { steps, delivered, unlockAsked } = recordingSteps(null);
    expect(await controller.submit(steps)).toEqual({ kind: 'sent', delivery });
    expect(unlockAsked()).toBe(0);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ keys: null, files: [file('a.txt')], draft: { recipients: ['bob@example.test'], additionalRecipients: ['cc@example.test'], subject: 'S', body: 'B', securityLevel: L2 } });
    expect(phases).toEqual(['editing:-', 'sending:0', 'sending:50', 'sent:50']);
    expect(controller.getState().delivery).toBe(delivery);
  });

  it('levels 3/4: asks for the keys first; a cancelled dialog sends nothing, unlocked keys go to the deliver step', async () => {
    // Real keys from the crypto service (the code the Worker runs): handles, never key bytes.
    const crypto = createCryptoService();
    const { keys } = await crypto.setupSecuPass({ userId: 'sender-1', passphrase: 'a long enough passphrase 42' });
    const controller = createSendController({ config: config(), initial: { recipients: ['bob@example.test'], subject: 'S', files: [file('a.txt')], level: L4 } });

    const cancelled = recordingSteps(null);
    expect(await controller.submit(cancelled.steps)).toEqual({ kind: 'cancelled' });
    expect(cancelled.unlockAsked()).toBe(1);
    expect(cancelled.delivered).toEqual([]);
    expect(controller.getState().phase).toBe('editing');

    const unlocked = recordingSteps(keys);
    expect(await controller.submit(unlocked.steps)).toMatchObject({ kind: 'sent' });
    expect(unlocked.delivered[0]!.keys).toBe(keys);
    expect(unlocked.delivered[0]!.keys!.encryption.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  }, 60_000);

  it('a second Send while one runs is refused; a handover returns to editing', async () => {
    const controller = createSendController({ config: config(), initial: { recipients: ['bob@example.test'], subject: 'S', files: [file('a.txt')], level: L3 } });
    let release: (keys: UnlockedKeys | null) => void = () => undefined;
    const first = controller.submit({
      unlockKeys: () => new Promise((resolve) => (release = resolve)),
      deliver: async () => 'handedOver',
    });
    expect(controller.getState().phase).toBe('unlocking');
    expect(await controller.submit(recordingSteps(null).steps)).toEqual({ kind: 'busy' });
    const keys = { encryption: { handle: 'e' }, signing: { handle: 's' } } as UnlockedKeys;
    release(keys);
    expect(await first).toEqual({ kind: 'handedOver', keys });
    expect(controller.getState()).toMatchObject({ phase: 'editing', progress: null });
  });

  it('a refusal and a throwing deliver step end failed with their cause', async () => {
    const error = toSendError(new Error('offline'));
    const controller = createSendController({ config: config(), initial: { recipients: ['bob@example.test'], subject: 'S', files: [file('a.txt')] } });
    expect(await controller.submit(recordingSteps(null, { ok: false, error }).steps)).toEqual({ kind: 'failed', error });
    expect(controller.getState()).toMatchObject({ phase: 'failed', error, progress: { phase: 'failed', percent: 50 } });

    const cause = new Error('attachment unreadable');
    const thrown = await controller.submit({ unlockKeys: async () => null, deliver: async () => Promise.reject(cause) });
    expect(thrown).toEqual({ kind: 'thrown', cause });
    expect(controller.getState()).toMatchObject({ phase: 'failed', progress: null });

    controller.reset();
    expect(controller.getState()).toMatchObject({ phase: 'editing', submitted: false, error: null, fields: { recipients: [], files: [], level: L2 } });
  });
});
