import { Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, makeStyles, Text } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { call } from '@shared/api/call';
import { API_BASE } from '@shared/contract/constants';
import { ROOM_OPS_ENDPOINTS } from '@shared/contract/endpoints/room-ops';
import { ROOM_OPS_PATHS, type RoomFileVersion, type RoomFileVersionList } from '@shared/contract/room-ops';
import type { RoomFile } from '@shared/contract/rooms';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { formatSize } from '@web/lib/format-size';
import { plainDownloadClick } from '@web/lib/plain-download';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { roomFileContentUrl, type VersionConflictChoice } from './api/room-files';
import { PersonName } from './person-name';
import { useDateFormat } from './room-format';
import { scanAllowsContent, ScanStatus } from './scan-state';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(820px, 95vw)', width: '100%' },
  actions: { flexWrap: 'wrap' },
});

export interface ConflictRequest {
  name: string;
  /** `forAll`: "Apply to all remaining conflicts" was ticked — the caller answers the batch's later conflicts alike. */
  answer: (choice: VersionConflictChoice, forAll?: boolean) => void;
  /** Files of the same upload after this one: the checkbox shows only when there are any. */
  remaining?: number;
}

/**
 * An upload meets a file of the same name (SPEC §1 file versions): a new version, both kept
 * ("name (1).ext"), or not uploaded; in a batch, optionally the same for every later conflict.
 */
export function VersionConflictDialog({ request, onClose }: { request: ConflictRequest | null; onClose: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [forAll, setForAll] = useState(false);
  const batch = (request?.remaining ?? 0) > 0;
  // Closing the dialog (Escape) skips this file only; the checkbox counts for the buttons.
  const choose = (choice: VersionConflictChoice, all = false) => {
    request?.answer(choice, all && batch);
    setForAll(false);
    onClose();
  };
  return (
    <Dialog open={request !== null} modalType="alert" onOpenChange={(_e, data) => (data.open ? undefined : choose('cancel'))}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('rooms:versions.conflictTitle', { name: request?.name ?? '' })}</DialogTitle>
          <DialogContent>
            <Text as="p" style={{ margin: 0 }}>
              {t('rooms:versions.conflictText', { name: request?.name ?? '' })}
            </Text>
            {batch ? <Checkbox checked={forAll} onChange={(_e, data) => setForAll(data.checked === true)} label={t('rooms:versions.applyToAll')} /> : null}
          </DialogContent>
          <DialogActions className={styles.actions}>
            <Button appearance="primary" onClick={() => choose('replace', forAll)}>
              {t('rooms:versions.replace')}
            </Button>
            <Button onClick={() => choose('keepBoth', forAll)}>{t('rooms:versions.keepBoth')}</Button>
            <Button onClick={() => choose('cancel', forAll)}>{t('common:actions.cancel')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** GET …/versions (OWNER, EDITOR): the current content and the earlier versions, newest first, each with its download. */
export function VersionsDialog({ file, onClose }: { file: RoomFile | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const dateFormat = useDateFormat();
  const { user } = useAuthState();
  const versions = useSWR(file && user ? ['rooms/versions', user.uuid, file.roomUuid, file.uuid] : null, (): Promise<RoomFileVersionList> =>
    call(apiClient, ROOM_OPS_ENDPOINTS.versions, { params: { roomUuid: file!.roomUuid, fileUuid: file!.uuid } }),
  );
  const href = (version: RoomFileVersion) =>
    version.current ? roomFileContentUrl(file!.roomUuid, file!.uuid) : `${API_BASE}${ROOM_OPS_PATHS.versionContent(file!.roomUuid, file!.uuid, version.uuid)}`;
  const columns: DataTableColumn<RoomFileVersion>[] = [
    { id: 'version', header: t('rooms:versions.columns.version'), cell: (v) => (v.current ? t('rooms:versions.current', { version: v.version }) : String(v.version)) },
    { id: 'size', header: t('rooms:files.columns.size'), cell: (v) => formatSize(v.size, i18n.language) },
    { id: 'uploadedBy', header: t('rooms:files.columns.uploadedBy'), cell: (v) => <PersonName email={v.uploadedBy} name={v.uploadedByName} /> },
    { id: 'date', header: t('rooms:versions.columns.uploaded'), cell: (v) => dateFormat.format(v.createdAt) },
    {
      id: 'download',
      header: t('rooms:files.columns.actions'),
      // A version still scanning or blocked is refused by the server: its state instead of the link.
      cell: (v) =>
        scanAllowsContent(v.scanState) ? (
          <Button as="a" size="small" icon={<ArrowDownloadRegular />} href={href(v)} download={file!.name} onClick={(event) => {
              track(ANALYTICS_ACTIONS.fileVersionDownloaded);
              plainDownloadClick({ url: href(v), name: file!.name, size: v.size })(event);
            }} aria-label={t('rooms:versions.download', { version: v.version })}>
            {t('rooms:files.download')}
          </Button>
        ) : (
          <ScanStatus state={v.scanState} />
        ),
    },
  ];
  return (
    <Dialog open={file !== null} onOpenChange={(_e, data) => (data.open ? undefined : onClose())}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{t('rooms:versions.title', { name: file?.name ?? '' })}</DialogTitle>
          <DialogContent>
            <DataTable
              label={t('rooms:versions.title', { name: file?.name ?? '' })}
              columns={columns}
              rows={versions.data?.versions}
              rowKey={(v) => v.uuid + String(v.version)}
              loading
              {...(versions.error ? { error: t('rooms:versions.loadError') } : {})}
            />
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="primary">{t('rooms:preview.close')}</Button>
            </DialogTrigger>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
