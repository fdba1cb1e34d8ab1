import type { DeliveryDetail } from '@shared/contract/deliveries';
import type { FileProgress } from '@shared/transfer';
import type { TransferItem, TransferItemState } from '@web/lib/transfer-store';

/** The send engine's per-file states as the transfer centre's item states. */
const ITEM_STATE: Record<FileProgress['state'], TransferItemState> = {
  pending: 'pending',
  uploading: 'uploading',
  paused: 'paused',
  success: 'success',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const toItems = (files: readonly FileProgress[]): TransferItem[] =>
  files.map((f) => ({ name: f.name, state: ITEM_STATE[f.state], bytesDone: f.bytesSent, totalBytes: f.totalBytes }));

/**
 * The items once the delivery is sent (SPEC §4 upload states): "scanning for viruses" while the
 * server's scan has not decided (the send page's ScanOutcome follows it), "encrypted" for a file
 * encrypted in the browser (levels 3/4), else done.
 */
export function sentItems(files: readonly FileProgress[], delivery: Pick<DeliveryDetail, 'files'>, encrypted: boolean): TransferItem[] {
  return toItems(files).map((item) => {
    const onServer = delivery.files.find((f) => f.name === item.name);
    const state: TransferItemState = onServer?.scanState === 'scanning' ? 'scanning' : encrypted ? 'encrypted' : 'success';
    return { ...item, state };
  });
}
