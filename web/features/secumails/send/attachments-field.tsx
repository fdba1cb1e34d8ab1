import { Button, Field, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { AttachRegular, DeleteRegular, ErrorCircleRegular } from '@fluentui/react-icons';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../delivery-format';

const useStyles = makeStyles({
  zone: {
    border: `2px dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '16px',
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
    alignItems: 'flex-start',
  },
  over: { border: `2px dashed ${tokens.colorBrandStroke1}`, background: tokens.colorBrandBackground2 },
  list: { listStyle: 'none', margin: 0, padding: 0, width: '100%' },
  row: { display: 'flex', alignItems: 'center', gap: '8px', padding: '2px 0' },
  name: { flex: 1, overflowWrap: 'anywhere', display: 'flex', flexDirection: 'column' },
  refused: { color: tokens.colorPaletteRedForeground1, display: 'flex', gap: '4px', alignItems: 'flex-start', fontSize: tokens.fontSizeBase200 },
  refusedIcon: { flexShrink: 0, marginTop: '2px' },
  size: { color: tokens.colorNeutralForeground2, whiteSpace: 'nowrap' },
  hidden: { display: 'none' },
});

/**
 * Attachments: file picker and drag-and-drop onto the zone; each file listed with its size and a
 * remove button. The §5 file rules are shown by the page through `validationMessage`; a forbidden
 * file also says why in its own row (`rowProblems`).
 */
export function AttachmentsField({
  files,
  onAdd,
  onRemove,
  validationMessage,
  rowProblems,
  disabled,
}: {
  files: readonly File[];
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
  validationMessage?: string;
  /** Why a file cannot be sent, by file name (a forbidden type): shown in its row as soon as it is added. */
  rowProblems?: ReadonlyMap<string, string>;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const dropped = Array.from(event.dataTransfer.files);
    if (dropped.length > 0) onAdd(dropped);
  }

  return (
    <Field label={t('send:files.label')} validationMessage={validationMessage} validationState={validationMessage ? 'error' : 'none'}>
      <div
        className={mergeClasses(styles.zone, over && styles.over)}
        data-testid="send-drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <span>{t('send:files.dropHint')}</span>
        <Button icon={<AttachRegular />} disabled={disabled} onClick={() => input.current?.click()}>
          {t('send:files.add')}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          className={styles.hidden}
          aria-label={t('send:files.add')}
          tabIndex={-1}
          onChange={(event) => {
            const picked = Array.from(event.target.files ?? []);
            // Reset so picking the same file again after removing it fires a change.
            event.target.value = '';
            if (picked.length > 0) onAdd(picked);
          }}
        />
        {files.length > 0 ? (
          <ul className={styles.list} aria-label={t('send:files.listLabel')}>
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`} className={styles.row}>
                <span className={styles.name}>
                  <span>{file.name}</span>
                  {rowProblems?.get(file.name) ? (
                    <span className={styles.refused}>
                      <ErrorCircleRegular className={styles.refusedIcon} aria-hidden />
                      <span>{rowProblems.get(file.name)}</span>
                    </span>
                  ) : null}
                </span>
                <span className={styles.size}>{formatSize(file.size, i18n.language)}</span>
                <Button
                  appearance="subtle"
                  size="small"
                  icon={<DeleteRegular />}
                  disabled={disabled}
                  aria-label={t('send:files.remove', { name: file.name })}
                  onClick={() => onRemove(index)}
                />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Field>
  );
}
