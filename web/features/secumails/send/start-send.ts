import type { CreateDeliveryBody, DeliveryDetail } from '@shared/contract/deliveries';
import type { UnlockedKeys } from '@shared/crypto/service';
import type { ChangedContactKey } from '@shared/transfer/e2e';
import { setDeliveryPhoneNumbers } from '@shared/api/endpoints/external';
import { sendDelivery, type FileProgress, type SendDeliveryOptions, type SendDraft } from '@shared/transfer';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi } from '@web/lib/crypto';
import { followScanningItems, transferStore, type TransferOutcome } from '@web/lib/transfer-store';
import { fetchDelivery } from '../api/delivery';
import { sentItems, toItems } from './send-items';
import { currentLanguage } from '@web/lib/i18n';
import { formatSize } from '../delivery-format';
import { sendErrorMessage } from './send-messages';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

export interface StartSendInput {
  /** The form's fields, as POST /deliveries takes them. */
  draft: CreateDeliveryBody;
  files: readonly File[];
  /**
   * Levels 3/4: the unlocked SecuPass keys (web/lib/crypto), passed to the engine as
   * `e2e: { crypto: cryptoApi, keys }`.
   */
  keys?: UnlockedKeys;
  /** Levels 3/4: asks the user about a recipient key that differs from its pin (DESIGN §3); false → nothing sent. */
  confirmChangedKey?: (change: ChangedContactKey) => Promise<boolean>;
  /**
   * An earlier failed or cancelled send of the same form: its draft is reused (fields patched,
   * files already on the server kept) instead of leaving it behind and creating another.
   */
  replaces?: string;
  /** Unregistered recipients' numbers for the SMS signup code: PUT once the draft exists, before anything is sent. */
  phoneNumbers?: Readonly<Record<string, string>>;
  /** A draft the server made already (a data-room request's, dar-send-page.tsx): its files are added and it is sent. */
  existingDraft?: string;
}

/** The draft of each transfer this module started, once the server created it. */
const drafts = new Map<string, string>();

/**
 * Starts one delivery as a transfer of the transfer centre: the single `sendDelivery` call of the
 * web client. A retry resumes the same draft (`draft: { deliveryUuid }`) with the same files, as
 * shared/transfer/README.md "Resume" describes; the outcome's result is the sent `DeliveryDetail`.
 */
export function startSend(input: StartSendInput): { id: string; done: Promise<TransferOutcome> } {
  const earlier = input.replaces === undefined ? undefined : drafts.get(input.replaces);
  if (input.replaces !== undefined) {
    drafts.delete(input.replaces);
    transferStore.dismiss(input.replaces);
  }
  let deliveryUuid: string | undefined;
  // The first run patches the earlier draft with the form as it is now; a retry continues as it is.
  let update = earlier === undefined ? undefined : input.draft;
  if (earlier !== undefined) deliveryUuid = earlier;
  else if (input.existingDraft !== undefined) deliveryUuid = input.existingDraft;
  const sources = input.files.map((file) => ({ name: file.name, blob: file, mimeType: file.type || undefined }));
  let transferId = '';
  const started = transferStore.start({
    kind: 'upload',
    title: input.draft.subject,
    items: input.files.map((f) => ({ name: f.name, state: 'pending', bytesDone: 0, totalBytes: f.size })),
    run: async ({ signal, report }) => {
      let lastFiles: readonly FileProgress[] = [];
      const draft: SendDraft = deliveryUuid ? { deliveryUuid, ...(update ? { update } : {}) } : input.draft;
      const options: SendDeliveryOptions = {
        client: apiClient,
        draft,
        files: sources,
        signal,
        onDraft: (uuid) => {
          deliveryUuid = uuid;
          drafts.set(transferId, uuid);
          update = undefined;
        },
        ...(input.phoneNumbers && Object.keys(input.phoneNumbers).length > 0
          ? {
              afterDraft: async (uuid: string) => {
                const phoneNumbers = Object.entries(input.phoneNumbers ?? {}).map(([email, phoneNumber]) => ({ email, phoneNumber }));
                await setDeliveryPhoneNumbers(apiClient, uuid, { phoneNumbers });
              },
            }
          : {}),
        onProgress: (progress) => {
          lastFiles = progress.files;
          report({ percent: progress.percent, items: toItems(progress.files) });
        },
        // Levels 3/4: files are encrypted in the crypto Worker and the keys wrapped to every reader (shared/transfer/e2e.ts).
        ...(input.keys ? { e2e: { crypto: cryptoApi, keys: input.keys, ...(input.confirmChangedKey ? { confirmChangedKey: input.confirmChangedKey } : {}) } } : {}),
      };
      const result = await sendDelivery(options);
      if (result.ok) {
        drafts.delete(transferId);
        const items = sentItems(lastFiles, result.delivery, input.keys !== undefined);
        report({ percent: 100, items });
        // The transfer centre follows the server's scan until it decided (the send page's ScanOutcome shows it too).
        const sentFiles = lastFiles;
        const sentUuid = result.delivery.deliveryUuid;
        if (items.some((item) => item.state === 'scanning')) followScanningItems(transferId, async () => sentItems(sentFiles, await fetchDelivery(sentUuid), input.keys !== undefined));
        track(ANALYTICS_ACTIONS.deliverySent, { files: input.files.length, encrypted: input.keys !== undefined });
        return { ok: true, result: result.delivery satisfies DeliveryDetail };
      }
      if (result.deliveryUuid) deliveryUuid = result.deliveryUuid;
      // Also when the refusal came before onDraft (a PATCH of the earlier draft): the next send continues it.
      if (deliveryUuid) drafts.set(transferId, deliveryUuid);
      return { ok: false, cancelled: result.error.code === 'cancelled', failure: sendErrorMessage(result.error, (bytes) => formatSize(bytes, currentLanguage())) };
    },
  });
  transferId = started.id;
  return started;
}
