import { Button, Checkbox, Field, Input, makeStyles, Spinner, Switch, Text, tokens } from '@fluentui/react-components';
import { HistoryRegular } from '@fluentui/react-icons';
import { isApiError } from '@shared/api/api-error';
import { RETENTION_BELOW_MINIMUM, RETENTION_CONFIRMATIONS, ROOM_RETENTION_MAX_DAYS, type RetentionConfirmation, type RoomRetention, type RoomRetentionPreview } from '@shared/contract/room-retention';
import { FormDialog } from '@web/components/form-dialog';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';
import { useNotify } from '@web/lib/toasts';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { setRoomRetention, useRetentionPreview, useRoomRetention } from './api/room-retention';
import { roomErrorText } from './room-errors';

/** Files of the preview named in the dialog; the count tells the rest. */
const LISTED = 10;

/** A Secure room's names are sealed: the page passes how to open them (uuid → name, null: does not open). */
export type RetentionNames = (files: RoomRetentionPreview['files']) => Promise<Map<string, string | null>>;

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: '12px' },
  boxes: { display: 'flex', flexDirection: 'column', gap: '4px', border: 'none', margin: 0, padding: 0 },
  legend: { fontWeight: tokens.fontWeightSemibold, marginBottom: '4px', padding: 0 },
  list: { margin: 0, paddingLeft: '20px', maxHeight: '160px', overflowY: 'auto' },
  hint: { color: tokens.colorPaletteRedForeground1 },
});

const dayFormat = (language: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium' });

/** "30 days" / "no automatic deletion". */
function usePeriodText() {
  const { t } = useTranslation();
  return (days: number | null) => (days === null ? t('rooms:retention.none') : t('rooms:retention.days', { count: days }));
}

/** What is in force, and the change waiting for the end of the day (every member may read both). */
export function RetentionSummary({ policy }: { policy: RoomRetention }) {
  const { t, i18n } = useTranslation();
  const period = usePeriodText();
  return (
    <Text as="p" style={{ margin: 0 }} data-testid="retention-summary">
      {t('rooms:retention.inForce', { period: period(policy.periodDays) })}
      {policy.pending ? ` ${t('rooms:retention.pending', { period: period(policy.pending.periodDays), date: dayFormat(i18n.language).format(policy.pending.effectiveFrom) })}` : null}
    </Text>
  );
}

/** The files the period would take at the next end of day: their count and the first names. */
function PreviewList({ roomUuid, periodDays, names }: { roomUuid: string; periodDays: number; names: RetentionNames | undefined }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const preview = useRetentionPreview(roomUuid, periodDays);
  const files = preview.data?.files.slice(0, LISTED);
  const opened = useSWR(names && files && files.length > 0 ? ['rooms/retention-names', roomUuid, files.map((f) => f.uuid).join('|')] : null, () => names!(files!));
  if (preview.error) return <Text role="alert">{t('rooms:retention.previewFailed')}</Text>;
  if (!preview.data) return <Spinner size="tiny" label={t('rooms:retention.previewLoading')} />;
  const { count } = preview.data;
  return (
    <div aria-live="polite" data-testid="retention-preview">
      <Text as="p" style={{ margin: '0 0 4px' }}>
        {count === 0 ? t('rooms:retention.previewNone') : t('rooms:retention.previewCount', { count })}
      </Text>
      {files && files.length > 0 ? (
        <ul className={styles.list} aria-label={t('rooms:retention.previewListLabel')}>
          {files.map((f) => (
            <li key={f.uuid}>{names ? (opened.data?.get(f.uuid) ?? t('rooms:e2e.nameBroken')) : f.name}</li>
          ))}
          {count > files.length ? <li>{t('rooms:retention.previewMore', { count: count - files.length })}</li> : null}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The retention policy editor (SPEC §2; §4 "files beyond the new period are deleted at end of
 * day"; §5 every box ticked, at or above the minimum): the period, what it would move to the
 * trash, the confirmation boxes. Saving stays disabled until every box is ticked.
 */
export function RetentionDialog({ roomUuid, open, onClose, names }: { roomUuid: string; open: boolean; onClose: () => void; names?: RetentionNames }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const period = usePeriodText();
  const policy = useRoomRetention(open ? roomUuid : null);
  const [enabled, setEnabled] = useState(false);
  const [daysText, setDaysText] = useState('');
  const [ticked, setTicked] = useState<ReadonlySet<RetentionConfirmation>>(new Set());
  const [pending, setPending] = useState(false);
  const current = policy.data;

  // Each opening starts from what will be in force: the waiting change if there is one.
  useEffect(() => {
    if (!open || !current) return;
    const days = current.pending ? current.pending.periodDays : current.periodDays;
    setEnabled(days !== null);
    setDaysText(days === null ? String(current.minimumDays) : String(days));
    setTicked(new Set());
  }, [open, current]);

  const minimum = current?.minimumDays ?? 1;
  const days = Number(daysText);
  const daysProblem = !enabled
    ? null
    : !/^\d+$/.test(daysText.trim())
      ? t('rooms:retention.daysInvalid')
      : days < minimum
        ? t('rooms:retention.belowMinimum', { count: minimum })
        : days > ROOM_RETENTION_MAX_DAYS
          ? t('rooms:retention.aboveMaximum', { count: ROOM_RETENTION_MAX_DAYS })
          : null;
  const periodDays = enabled && daysProblem === null ? days : null;
  const allTicked = RETENTION_CONFIRMATIONS.every((box) => ticked.has(box));
  const endOfDay = useMemo(() => dayFormat(i18n.language).format(new Date()), [i18n.language]);

  /** The §5 refusals in the editor's words (the minimum may have changed since the dialog opened); the rest as every room call. */
  function refusalText(error: unknown): string {
    const metadata = (isApiError(error) ? error.error?.metadata : undefined) as { reason?: unknown; minimum?: unknown; field?: unknown } | undefined;
    if (metadata?.reason === RETENTION_BELOW_MINIMUM && typeof metadata.minimum === 'number') return t('rooms:retention.belowMinimum', { count: metadata.minimum });
    if (metadata?.field === 'confirmations') return t('rooms:retention.acceptAll');
    const text = roomErrorText(error, i18n.language);
    return t(`rooms:${text.key}`, text.values);
  }

  function toggle(box: RetentionConfirmation, on: boolean) {
    setTicked((before) => {
      const next = new Set(before);
      if (on) next.add(box);
      else next.delete(box);
      return next;
    });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!allTicked || daysProblem !== null) return;
    setPending(true);
    try {
      const saved = await setRoomRetention(roomUuid, enabled ? days : null, [...ticked]);
      await policy.mutate(saved, { revalidate: false });
      track(ANALYTICS_ACTIONS.deletionPeriodChanged, { enabled, days: enabled ? days : 0 });
      notify('success', t('rooms:retention.saved'), t('rooms:retention.savedBody', { period: period(enabled ? days : null) }));
      onClose();
    } catch (error) {
      notify('error', t('rooms:retention.saveFailed'), refusalText(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('rooms:retention.title')}
      onSubmit={submit}
      submitLabel={t('rooms:retention.save')}
      submitDisabled={pending || !current || !allTicked || daysProblem !== null}
      contentClassName={styles.content}
    >
      {policy.error ? <Text role="alert">{t('rooms:retention.loadFailed')}</Text> : null}
      {current ? (
        <>
          <RetentionSummary policy={current} />
          <Text as="p" style={{ margin: 0 }}>
            {t('rooms:retention.intro')}
          </Text>
          <Switch checked={enabled} onChange={(_e, data) => setEnabled(data.checked)} label={t('rooms:retention.enable')} />
          {enabled ? (
            <Field label={t('rooms:retention.period')} hint={t('rooms:retention.periodHint', { count: minimum })} validationMessage={daysProblem ?? undefined} required>
              <Input type="number" min={minimum} max={ROOM_RETENTION_MAX_DAYS} value={daysText} onChange={(_e, data) => setDaysText(data.value)} contentAfter={<Text>{t('rooms:retention.unit')}</Text>} />
            </Field>
          ) : null}
          {periodDays !== null ? <PreviewList roomUuid={roomUuid} periodDays={periodDays} names={names} /> : null}
          <fieldset className={styles.boxes}>
            <legend className={styles.legend}>{t('rooms:retention.confirmTitle')}</legend>
            {RETENTION_CONFIRMATIONS.map((box) => (
              <Checkbox key={box} checked={ticked.has(box)} onChange={(_e, data) => toggle(box, data.checked === true)} label={t(`rooms:retention.confirm.${box}`, { date: endOfDay })} />
            ))}
          </fieldset>
          {allTicked ? null : (
            <Text as="p" className={styles.hint} style={{ margin: 0 }} data-testid="retention-accept-all">
              {t('rooms:retention.acceptAll')}
            </Text>
          )}
        </>
      ) : policy.error ? null : (
        <Spinner size="tiny" label={t('common:loading')} />
      )}
    </FormDialog>
  );
}

/** The room's "Retention policy" button with its editor (for the room's OWNER; the page decides). */
export function RetentionButton({ roomUuid, names }: { roomUuid: string; names?: RetentionNames }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<HistoryRegular />} onClick={() => setOpen(true)}>
        {t('rooms:retention.action')}
      </Button>
      <RetentionDialog roomUuid={roomUuid} open={open} onClose={() => setOpen(false)} {...(names ? { names } : {})} />
    </>
  );
}

/** On the room page, for every member: the period in force and a waiting change; nothing while the room has neither. */
export function RoomRetentionNote({ roomUuid }: { roomUuid: string }) {
  const policy = useRoomRetention(roomUuid).data;
  if (!policy || (policy.periodDays === null && policy.pending === null)) return null;
  return <RetentionSummary policy={policy} />;
}
