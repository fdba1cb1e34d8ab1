import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { MoreHorizontalRegular } from '@fluentui/react-icons';
import type { RoomRole } from '@shared/contract/rooms';
import type { TFunction } from 'i18next';
import { memo } from 'react';
import type { E2eFolderLabelsView } from './e2e-folder-labels';
import type { E2eListedFile } from './e2e-room-client';
import { roomMay } from '../room-may';

/** A row of the E2E room's table: a sub-folder or a file (names decrypted; null: did not open). */
export type E2eRow = { kind: 'folder'; uuid: string; name: string | null; labels: E2eFolderLabelsView } | { kind: 'file'; uuid: string; name: string | null; file: E2eListedFile };

/** What the row menu's items do; the page's own dialogs and calls. */
export interface E2eRowActions {
  download: (file: E2eListedFile) => void;
  /** A folder's ZIP (e2e-zip.ts). */
  zip: (folder: { uuid: string; name: string }) => void;
  /** Preview (and, for OWNERs and EDITORs, edit): every role, a verified file. */
  preview: (file: E2eListedFile) => void;
  details: (row: E2eRow) => void;
  versions: (file: E2eListedFile) => void;
  rename: (row: E2eRow) => void;
  move: (row: E2eRow) => void;
  remove: (row: E2eRow) => void;
  /** The classification or file-status dialog of a verified file or of a folder (OWNER, EDITOR). */
  label: (area: 'classification' | 'status', row: E2eRow, name: string) => void;
}

/**
 * One actions menu per row of the E2E room's table, as the plain room's file menu ("Actions for
 * file …" / "Actions for folder …"): Download (a verified file; not a PREVIEWER), Download as ZIP
 * (a folder whose name decrypts; not a PREVIEWER), Details
 * (everyone), Versions (a verified file), Classification and File status (a verified file, a folder whose name decrypts), Rename, Move, Delete (those four: OWNER, EDITOR). Fluent
 * mounts the list only while it is open, so a row costs one button: six buttons a row cost the
 * folder-open figure (issue 15). Memoised: `actions` is a ref and `t` stable, so a row renders
 * again only when its row, role or language change (the background load re-renders the page).
 */
export const E2eRowMenu = memo(function E2eRowMenu({ row, role, actions, t }: { row: E2eRow; role: RoomRole | undefined; actions: { readonly current: E2eRowActions | null }; t: TFunction }) {
  const canWrite = roomMay(role, 'edit');
  const verified = row.kind === 'file' && row.file.metadata !== null;
  const name = row.name || t('rooms:e2e.nameBroken');
  const labellable = verified || (row.kind === 'folder' && row.name !== null);
  const run = (pick: (a: E2eRowActions) => void) => () => actions.current && pick(actions.current);
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" icon={<MoreHorizontalRegular />} aria-label={t(row.kind === 'file' ? 'rooms:files.actionsFor' : 'rooms:room.actionsFor', { name })} />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {row.kind === 'file' && verified && roomMay(role, 'download') ? <MenuItem onClick={run((a) => a.download(row.file))}>{t('rooms:e2e.download')}</MenuItem> : null}
          {row.kind === 'folder' && row.name !== null && roomMay(role, 'download') ? <MenuItem onClick={run((a) => a.zip({ uuid: row.uuid, name }))}>{t('rooms:files.zip')}</MenuItem> : null}
          {row.kind === 'file' && verified && roomMay(role, 'preview') ? <MenuItem onClick={run((a) => a.preview(row.file))}>{t('rooms:preview.action')}</MenuItem> : null}
          <MenuItem onClick={run((a) => a.details(row))}>{t('rooms:details.action')}</MenuItem>
          {canWrite && row.kind === 'file' && verified ? <MenuItem onClick={run((a) => a.versions(row.file))}>{t('rooms:versions.action')}</MenuItem> : null}
          {canWrite && labellable ? <MenuItem onClick={run((a) => a.label('classification', row, name))}>{t('roomComments:classification.action')}</MenuItem> : null}
          {canWrite && labellable ? <MenuItem onClick={run((a) => a.label('status', row, name))}>{t('roomComments:status.action')}</MenuItem> : null}
          {canWrite && row.name !== null && (row.kind === 'folder' || verified) ? <MenuItem onClick={run((a) => a.rename(row))}>{t('rooms:rename.action')}</MenuItem> : null}
          {canWrite && row.name ? <MenuItem onClick={run((a) => a.move(row))}>{t('rooms:move.action')}</MenuItem> : null}
          {canWrite ? <MenuItem onClick={run((a) => a.remove(row))}>{t('rooms:delete.action')}</MenuItem> : null}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
});
