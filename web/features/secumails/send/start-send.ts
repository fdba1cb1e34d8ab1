import type { CreateDeliveryBody, DeliveryDetail } from '@shared/contract/deliveries';
import type { UnlockedKeys } from '@shared/crypto/service';
import { sendDelivery, type FileProgress, type SendDeliveryOptions, type SendDraft } from '@shared/transfer';
import { apiClient } from '@web/lib/api-client';
import { transferStore, type TransferItem, type TransferItemState, type TransferOutcome } from '@web/lib/transfer-store';
import { currentLanguage } from '@web/lib/i18n';
import { formatSize } from '../delivery-format';
import { sendErrorMessage } from './send-messages';
import type { SendError } from '@shared/deliveries';

export interface StartSendInput {
  /** The form's fields, as POST /deliveries takes them. */
  draft: CreateDeliveryBody;
  files: readonly File[];
  /**
   * Levels 3/4: the unlocked SecuPass keys (web/lib/crypto). The engine takes them as
   * `e2e: { crypto: cryptoApi, keys }`; this module is the one place that builds the options, so
   * that option is added here alone once shared/transfer offers it. Until then the server refuses
   * levels 3/4 and the page shows its message.
   */
  keys?: UnlockedKeys;
}

/** What a failed run leaves for the page besides the message: the refusal itself (its field problem). */
export interface SendFailure {
  error: SendError;
}

const ITEM_STATE: Record<FileProgress['state'], TransferItemState> = {
  pending: 'pending',
  uploading: 'uploading',
  success: 'success',
  failed: 'failed',
  cancelled: 'cancelled',
};

const toItems = (files: readonly FileProgress[]): TransferItem[] =>
  files.map((f) => ({ name: f.name, state: ITEM_STATE[f.state], bytesDone: f.bytesSent, totalBytes: f.totalBytes }));

/** Last refusal of each transfer this module started (the page reads the field problem from it). */
const failures = new Map<string, SendError>();
export const lastSendError = (transferId: string): SendError | undefined => failures.get(transferId);

/**
 * Starts one delivery as a transfer of the transfer centre: the single `sendDelivery` call of the
 * web client. A retry resumes the same draft (`draft: { deliveryUuid }`) with the same files, as
 * shared/transfer/README.md "Resume" describes; the outcome's result is the sent `DeliveryDetail`.
 */
export function startSend(input: StartSendInput): { id: string; done: Promise<TransferOutcome> } {
  let deliveryUuid: string | undefined;
  const sources = input.files.map((file) => ({ name: file.name, blob: file, mimeType: file.type || undefined }));
  let transferId = '';
  const started = transferStore.start({
    kind: 'upload',
    title: input.draft.subject,
    items: input.files.map((f) => ({ name: f.name, state: 'pending', bytesDone: 0, totalBytes: f.size })),
    run: async ({ signal, report }) => {
      const draft: SendDraft = deliveryUuid ? { deliveryUuid } : input.draft;
      const options: SendDeliveryOptions = {
        client: apiClient,
        draft,
        files: sources,
        signal,
        onDraft: (uuid) => (deliveryUuid = uuid),
        onProgress: (progress) => report({ percent: progress.percent, items: toItems(progress.files) }),
      };
      const result = await sendDelivery(options);
      if (result.ok) {
        failures.delete(transferId);
        return { ok: true, result: result.delivery satisfies DeliveryDetail };
      }
      if (result.deliveryUuid) deliveryUuid = result.deliveryUuid;
      failures.set(transferId, result.error);
      return { ok: false, cancelled: result.error.code === 'cancelled', failure: sendErrorMessage(result.error, (bytes) => formatSize(bytes, currentLanguage())) };
    },
  });
  transferId = started.id;
  return started;
}
