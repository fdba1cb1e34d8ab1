import { Badge, Field, makeStyles, Select } from '@fluentui/react-components';
import { ROOM_CLASSIFICATIONS, ROOM_FILE_STATUSES, type RoomClassification, type RoomFileStatus } from '@shared/contract/rooms';
import { FormDialog } from '@web/components/form-dialog';
import { useNotify } from '@web/lib/toasts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { setLabels, type Labels } from './api/room-comments';
import { refreshRooms } from './api/rooms';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/**
 * SPEC §4 classification and file status of a file or folder (issue 31 §1): the badges in the
 * room's tables, the filter above them, and the classification and file-status dialogs (SPEC §2).
 */

const useStyles = makeStyles({
  filter: { display: 'flex', gap: '12px', flexWrap: 'wrap', alignItems: 'end', margin: '0 0 12px' },
  badges: { display: 'inline-flex', gap: '4px', flexWrap: 'wrap' },
});

const CLASSIFICATION_COLOURS = { none: 'informative', public: 'success', internal: 'brand', private: 'warning', confidential: 'danger' } as const;
const STATUS_COLOURS = { none: 'informative', toDo: 'informative', inProgress: 'brand', done: 'success', rejected: 'danger' } as const;

export interface LabelledItem {
  classification: RoomClassification;
  status: RoomFileStatus;
}

/** The item's classification and status as badges; nothing for `none`. */
export function LabelBadges({ item }: { item: LabelledItem }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (item.classification === 'none' && item.status === 'none') return null;
  return (
    <span className={styles.badges}>
      {item.classification !== 'none' ? (
        <Badge appearance="tint" color={CLASSIFICATION_COLOURS[item.classification]}>
          {t(`roomComments:classification.values.${item.classification}`)}
        </Badge>
      ) : null}
      {item.status !== 'none' ? (
        <Badge appearance="outline" color={STATUS_COLOURS[item.status]}>
          {t(`roomComments:status.values.${item.status}`)}
        </Badge>
      ) : null}
    </span>
  );
}

/** The filter's choice: `all` or one value. */
export interface LabelFilterValue {
  classification: RoomClassification | 'all';
  status: RoomFileStatus | 'all';
}
export const NO_LABEL_FILTER: LabelFilterValue = { classification: 'all', status: 'all' };

export const matchesLabels = (filter: LabelFilterValue) => (item: LabelledItem) =>
  (filter.classification === 'all' || item.classification === filter.classification) && (filter.status === 'all' || item.status === filter.status);

/** A labelled select of the classifications or the statuses (`withAll`: the filter's "All" first). */
function LabelSelect({ label, area, value, onChange, withAll = false }: { label: string; area: 'classification' | 'status'; value: string; onChange: (value: string) => void; withAll?: boolean }) {
  const { t } = useTranslation();
  const values: readonly string[] = area === 'classification' ? ROOM_CLASSIFICATIONS : ROOM_FILE_STATUSES;
  return (
    <Field label={label}>
      <Select value={value} onChange={(_e, data) => onChange(data.value)}>
        {withAll ? <option value="all">{t('roomComments:filter.all')}</option> : null}
        {values.map((v) => (
          <option key={v} value={v}>
            {t(`roomComments:${area}.values.${v}`)}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** Two selects above the room's tables: keep only the folders and files of a classification and/or status (`label`: the group's name, the table filter's by default). */
export function LabelFilter({ value, onChange, label }: { value: LabelFilterValue; onChange: (value: LabelFilterValue) => void; label?: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <div className={styles.filter} role="group" aria-label={label ?? t('roomComments:filter.label')}>
      <LabelSelect label={t('roomComments:filter.classification')} area="classification" withAll value={value.classification} onChange={(v) => onChange({ ...value, classification: v as LabelFilterValue['classification'] })} />
      <LabelSelect label={t('roomComments:filter.status')} area="status" withAll value={value.status} onChange={(v) => onChange({ ...value, status: v as LabelFilterValue['status'] })} />
    </div>
  );
}

/** Which dialog: the classification or the file status of one item. */
export interface LabelRequest {
  area: 'classification' | 'status';
  roomUuid: string;
  item: { kind: 'file' | 'folder'; uuid: string; name: string } & LabelledItem;
  /** How the value is saved (a Secure room: its file's metadata signed again, e2e-file-ops.ts); absent: the plain PATCH. */
  save?: (labels: Labels) => Promise<void>;
}

/** The classification dialog and the file-status dialog (SPEC §2): choose a value, `none` removes it. */
export function LabelDialog({ request, onClose }: { request: LabelRequest | null; onClose: () => void }) {
  return request ? <LabelForm key={`${request.area}:${request.item.uuid}`} request={request} onClose={onClose} /> : null;
}

function LabelForm({ request, onClose }: { request: LabelRequest; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { area, item } = request;
  const [value, setValue] = useState<string>(area === 'classification' ? item.classification : item.status);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    try {
      const labels = area === 'classification' ? { classification: value as RoomClassification } : { status: value as RoomFileStatus };
      await (request.save ? request.save(labels) : setLabels(request.roomUuid, item, labels));
      track(area === 'status' ? ANALYTICS_ACTIONS.fileStatusEdit : item.kind === 'folder' ? ANALYTICS_ACTIONS.folderClassificationEdit : ANALYTICS_ACTIONS.fileClassificationEdit);
      await refreshRooms();
      notify('success', t(`roomComments:${area}.saved`, { name: item.name }));
      onClose();
    } catch {
      notify('error', t(`roomComments:${area}.failed`, { name: item.name }));
    } finally {
      setPending(false);
    }
  }

  return (
    <FormDialog open onClose={onClose} title={t(`roomComments:${area}.title`, { name: item.name })} onSubmit={submit} submitLabel={t('roomComments:save')} submitDisabled={pending}>
      <LabelSelect label={t(`roomComments:${area}.label`)} area={area} value={value} onChange={setValue} />
    </FormDialog>
  );
}
