import { Button } from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowMoveRegular, DeleteRegular } from '@fluentui/react-icons';
import type { RoomRole } from '@shared/contract/rooms';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MoveItem } from '../move-dialog';
import { ConfirmDialog, type ConfirmRequest } from '../room-dialogs';
import { e2eSelectionMay, type E2eChosenRow } from '../room-may';
import { SelectionFrame, selectionDeleteRequest } from '../room-selection';

/**
 * A Secure room's selection toolbar (issue 32 §2): the count; Download as ZIP of the chosen files
 * and folders, built and decrypted in the browser (e2e-zip.ts with `only`); Move (the page's move
 * dialog with decrypted names, one target for all, each item checked and moved in turn); Delete (one
 * confirmation, the plain calls item by item, the failed ones named). The selection is cleared after.
 */
export function E2eSelectionBar({ roomUuid, folderUuid, role, rows, onZip, onMove, onClear }: {
  roomUuid: string;
  folderUuid: string | null;
  role: RoomRole | undefined;
  rows: readonly E2eChosenRow[];
  onZip: () => void;
  onMove: (items: MoveItem[]) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);
  const may = e2eSelectionMay(role, rows);
  const shown = (row: E2eChosenRow) => row.name || t('rooms:e2e.nameBroken');
  return (
    <>
      {rows.length > 0 ? (
        <SelectionFrame count={rows.length} onClear={onClear}>
          {may.zip ? (
            <Button icon={<ArrowDownloadRegular />} onClick={onZip}>
              {t('rooms:files.zip')}
            </Button>
          ) : null}
          {may.move ? (
            <Button icon={<ArrowMoveRegular />} onClick={() => onMove(rows.map((row) => ({ kind: row.kind, uuid: row.uuid, name: shown(row), parentUuid: folderUuid })))}>
              {t('rooms:move.action')}
            </Button>
          ) : null}
          {may.delete ? (
            <Button icon={<DeleteRegular />} onClick={() => setConfirming(selectionDeleteRequest(t, roomUuid, rows.map((row) => ({ kind: row.kind, uuid: row.uuid, name: shown(row) })), onClear))}>
              {t('rooms:delete.action')}
            </Button>
          ) : null}
        </SelectionFrame>
      ) : null}
      {/* Mounted while the rows go: the confirmation clears the selection before its toast. */}
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} />
    </>
  );
}
