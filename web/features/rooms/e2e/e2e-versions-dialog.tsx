import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, makeStyles, MessageBar, MessageBarBody } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import type { UnlockedKeys } from '@shared/crypto/service';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useAuthState } from '@web/lib/auth';
import { formatSize } from '@web/lib/format-size';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { useDateFormat } from '../room-format';
import type { E2eListedFile } from './e2e-room-client';
import { openE2eVersions, type E2eVersionRow } from './e2e-versions';
import { SignedBy } from './signed-by';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(880px, 95vw)', width: '100%' },
  content: { display: 'grid', gap: '12px' },
});

/**
 * The versions of an E2E file (OWNER, EDITOR), as the plain rooms' dialog (version-dialogs.tsx):
 * each earlier version's metadata opened and its signature verified in the crypto Worker, showing
 * the signed version number, name, size, date and signer (never the server's row); a row that does
 * not verify says so and has no download; a version chain that does not hold is warned about.
 */
export function E2eVersionsDialog(props: {
  roomUuid: string;
  keys: UnlockedKeys | undefined;
  file: E2eListedFile | null;
  onClose: () => void;
  onDownload: (row: E2eVersionRow) => void;
}) {
  const { roomUuid, keys, file, onClose, onDownload } = props;
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const dateFormat = useDateFormat();
  const { user } = useAuthState();
  const versions = useSWR(file && keys && user ? ['rooms/e2e-versions', user.uuid, roomUuid, file.uuid, file.version] : null, () => openE2eVersions(roomUuid, keys!, file!));
  const problem = (row: E2eVersionRow) => t(`rooms:e2e.problems.${row.file.problem ?? 'room-metadata-invalid'}`, { defaultValue: t('rooms:e2e.problems.unknown') });
  const columns: DataTableColumn<E2eVersionRow>[] = [
    {
      id: 'version',
      header: t('rooms:versions.columns.version'),
      // The signed number (the metadata's AAD and step 6 bind it to the row's); a row that did not
      // verify keeps the server's number to be told apart, its name column says it is not trusted.
      cell: (v) => {
        const version = v.file.metadata?.version ?? v.version;
        return v.current ? t('rooms:versions.current', { version }) : String(version);
      },
    },
    { id: 'name', header: t('rooms:files.columns.name'), cell: (v) => (v.file.metadata ? v.file.metadata.name : problem(v)) },
    { id: 'size', header: t('rooms:e2e.columns.size'), cell: (v) => formatSize(v.file.metadata?.size ?? v.file.size, i18n.language) },
    { id: 'modified', header: t('rooms:files.columns.modified'), cell: (v) => (v.file.metadata ? dateFormat.format(new Date(v.file.metadata.createdAt)) : '') },
    { id: 'signed', header: t('rooms:e2e.columns.signedBy'), cell: (v) => <SignedBy file={v.file} /> },
    {
      id: 'download',
      header: t('rooms:files.columns.actions'),
      cell: (v) =>
        v.file.metadata ? (
          <Button size="small" icon={<ArrowDownloadRegular />} onClick={() => onDownload(v)} aria-label={t('rooms:versions.download', { version: v.version })}>
            {t('rooms:files.download')}
          </Button>
        ) : null,
    },
  ];
  const title = t('rooms:versions.title', { name: file?.name ?? '' });
  return (
    <Dialog open={file !== null} onOpenChange={(_e, data) => (data.open ? undefined : onClose())}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent className={styles.content}>
            {versions.data && !versions.data.chainIntact ? (
              <MessageBar intent="error">
                <MessageBarBody>{t('rooms:e2e.versionChainBroken')}</MessageBarBody>
              </MessageBar>
            ) : null}
            <DataTable
              label={title}
              columns={columns}
              rows={versions.data?.rows}
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
