import {
  Badge,
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  makeStyles,
  OverlayDrawer,
  ProgressBar,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowSyncCircleRegular, DeleteRegular, DismissRegular, PauseRegular, PlayRegular } from '@fluentui/react-icons';
import { RouterLink } from '@web/components/router-link';
import { useNotify } from '@web/lib/toasts';
import { formatSize } from '@web/lib/format-size';
import { canPause, isActive, isWaitingForServer, overallProgress, transferStore, useTransfers, type Transfer, type TransferItem, type TransferKind } from '@web/lib/transfer-store';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '16px' },
  transfer: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, paddingBottom: '12px', display: 'flex', flexDirection: 'column', gap: '6px' },
  title: { fontWeight: tokens.fontWeightSemibold, margin: 0, fontSize: tokens.fontSizeBase300, overflowWrap: 'anywhere' },
  items: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '4px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  failure: { color: tokens.colorPaletteRedForeground1, margin: 0 },
  button: { position: 'relative' },
  badge: { position: 'absolute', top: '-4px', right: '-4px' },
  captioned: { display: 'flex', flexDirection: 'column', gap: '4px' },
  section: { display: 'flex', flexDirection: 'column', gap: '12px', marginBottom: '24px' },
  // Fluent animates the bar's width for 0.3 s: with a new value several times a second the page
  // then lays out and paints at frame rate for the whole transfer (measured: as much renderer CPU
  // as decrypting the bytes). Transfer bars jump to each new value instead.
  steadyBar: { transitionProperty: 'none' },
});

/** A transfer's progress bar (a Fluent ProgressBar without the width animation). */
export function TransferProgressBar(props: { value?: number; max?: number; color?: 'brand' | 'success' | 'error'; 'aria-label': string }) {
  const styles = useStyles();
  return <ProgressBar {...props} bar={{ className: styles.steadyBar }} />;
}

/**
 * A progress bar with a visible caption. Not a Fluent Field: a Field names its control by its label,
 * and the bar keeps its own stable name (the caption changes with every percent).
 */
export function CaptionedProgress({ caption, label, value, max = 1, color }: { caption: string; label: string; value?: number; max?: number; color?: 'brand' | 'success' | 'error' }) {
  const styles = useStyles();
  return (
    <div className={styles.captioned}>
      <span>{caption}</span>
      <TransferProgressBar value={value} max={max} color={color} aria-label={label} />
    </div>
  );
}

/** The panels, one per kind, each with its own heading. */
const PANELS: readonly TransferKind[] = ['upload', 'download'];

/**
 * File transfer centre (SPEC §2): a header button opening a drawer with a panel per transfer kind
 * (uploads now, downloads later), an overall bar, a bar per file, the SPEC §4 states, pause and
 * resume (uploads), cancel and retry. State lives in web/lib/transfer-store, so it survives leaving the page that started it.
 */
export function TransferCentre({ buttonClassName }: { buttonClassName?: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const transfers = useTransfers();
  const [open, setOpen] = useState(false);
  const active = transfers.filter(isActive).length;
  const overall = overallProgress(transfers.filter(isActive));

  return (
    <>
      <span className={styles.button}>
        <Button
          appearance="transparent"
          className={buttonClassName}
          icon={<ArrowSyncCircleRegular />}
          aria-label={active > 0 ? t('send:transfers.openActive', { count: active, percent: overall.percent }) : t('send:transfers.open')}
          onClick={() => setOpen(true)}
        />
        {active > 0 ? <Badge className={styles.badge} size="small" color="danger" aria-hidden>{active}</Badge> : null}
      </span>
      <OverlayDrawer open={open} position="end" size="medium" onOpenChange={(_, data) => setOpen(data.open)} aria-label={t('send:transfers.title')}>
        <DrawerHeader>
          <DrawerHeaderTitle
            action={<Button appearance="subtle" icon={<DismissRegular />} aria-label={t('send:transfers.close')} onClick={() => setOpen(false)} />}
          >
            {t('send:transfers.title')}
          </DrawerHeaderTitle>
        </DrawerHeader>
        <DrawerBody>
          {PANELS.map((kind) => (
            <TransferPanel key={kind} kind={kind} transfers={transfers.filter((x) => x.kind === kind)} />
          ))}
        </DrawerBody>
      </OverlayDrawer>
    </>
  );
}

function TransferPanel({ kind, transfers }: { kind: TransferKind; transfers: readonly Transfer[] }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const overall = overallProgress(transfers);
  const finished = transfers.some((x) => !isActive(x));
  return (
    <section className={styles.section} aria-label={t(`send:transfers.panel.${kind}`)}>
      <h2 className={styles.title}>{t(`send:transfers.panel.${kind}`)}</h2>
      {transfers.length === 0 ? (
        <p>{t('send:transfers.empty')}</p>
      ) : (
        <>
          <CaptionedProgress
            caption={t('send:transfers.overall', { percent: overall.percent })}
            label={t('send:transfers.overallLabel', { kind: t(`send:transfers.panel.${kind}`) })}
            value={overall.percent}
            max={100}
          />
          <ul className={styles.list}>
            {transfers.map((transfer) => (
              <TransferRow key={transfer.id} transfer={transfer} />
            ))}
          </ul>
          {finished ? (
            <div className={styles.actions}>
              <Button onClick={() => transferStore.clearFinished()}>{t('send:transfers.clearFinished')}</Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

/** An item's caption: name and state, and while downloading the bytes (of the size, or so far when it is unknown). */
function itemCaption(item: TransferItem, t: TFunction, language: string): string {
  const values = { name: item.name, state: t(`send:itemState.${item.state}`) };
  if (item.state !== 'downloading') return t('send:transfers.item', values);
  const done = formatSize(item.bytesDone, language);
  if (item.unknownTotal) return t('send:transfers.itemSoFar', { ...values, done });
  return t('send:transfers.itemOf', { ...values, done, total: formatSize(item.totalBytes, language) });
}

function TransferRow({ transfer }: { transfer: Transfer }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const title = transfer.title || t('send:transfers.untitled');
  // A size known only at the end (a streamed ZIP): no percent to show, an indeterminate bar and the bytes so far.
  const unknownTotal = isActive(transfer) && transfer.items.some((item) => item.unknownTotal);
  const bytesSoFar = transfer.items.reduce((n, item) => n + item.bytesDone, 0);
  // A file waiting for the server (the engine retries by itself): the transfer says so, its bar stays where it was.
  const stateKey = isWaitingForServer(transfer) ? 'waiting' : transfer.state;
  return (
    <li className={styles.transfer} aria-label={title}>
      <p className={styles.title}>{title}</p>
      <CaptionedProgress
        caption={
          unknownTotal
            ? t('send:transfers.stateSoFar', { state: t(`send:transferState.${stateKey}`), done: formatSize(bytesSoFar, i18n.language) })
            : t('send:transfers.state', { state: t(`send:transferState.${stateKey}`), percent: transfer.percent })
        }
        label={t('send:transfers.progressOf', { title })}
        value={unknownTotal ? undefined : transfer.percent}
        max={100}
        color={transfer.state === 'failed' ? 'error' : transfer.state === 'success' ? 'success' : 'brand'}
      />
      {transfer.state === 'failed' && transfer.failure ? (
        <p className={styles.failure}>
          {t(transfer.failure.key, transfer.failure.values)}
          {transfer.failure.help ? (
            <>
              {' '}
              <RouterLink to={transfer.failure.help}>{t('rooms:errors.diskSpaceHelp')}</RouterLink>
            </>
          ) : null}
        </p>
      ) : null}
      <ul className={styles.items}>
        {transfer.items.map((item) => (
          <li key={item.name}>
            <CaptionedProgress
              caption={itemCaption(item, t, i18n.language)}
              label={t('send:progress.fileLabel', { name: item.name })}
              value={item.unknownTotal && item.state === 'downloading' ? undefined : item.totalBytes === 0 ? (item.state === 'success' ? 1 : 0) : item.bytesDone / item.totalBytes}
            />
          </li>
        ))}
      </ul>
      <div className={styles.actions}>
        {canPause(transfer) ? (
          <Button size="small" icon={<PauseRegular />} onClick={() => transferStore.pause(transfer.id)} aria-label={t('send:transfers.pause', { title })}>
            {t('send:progress.pause')}
          </Button>
        ) : null}
        {transfer.state === 'paused' ? (
          <Button size="small" icon={<PlayRegular />} onClick={() => void transferStore.resume(transfer.id)} aria-label={t('send:transfers.resume', { title })}>
            {t('send:progress.resume')}
          </Button>
        ) : null}
        {isActive(transfer) ? (
          <Button size="small" icon={<DismissRegular />} onClick={() => transferStore.cancel(transfer.id)} aria-label={t('send:transfers.cancel', { title })}>
            {t('send:progress.cancel')}
          </Button>
        ) : null}
        {transfer.state === 'failed' || transfer.state === 'cancelled' ? (
          <Button size="small" icon={<ArrowClockwiseRegular />} onClick={() => void transferStore.retry(transfer.id)} aria-label={t('send:transfers.retry', { title })}>
            {t('send:progress.retry')}
          </Button>
        ) : null}
        {!isActive(transfer) ? (
          <Button size="small" appearance="subtle" icon={<DeleteRegular />} onClick={() => transferStore.dismiss(transfer.id)} aria-label={t('send:transfers.dismiss', { title })} />
        ) : null}
      </div>
    </li>
  );
}

/**
 * Watches the transfers for the whole app: a toast when one succeeds or fails (SPEC §9 toasts), and
 * the browser's confirm before closing or reloading the tab while any is running (SPEC §4).
 */
export function TransferWatcher() {
  const { t } = useTranslation();
  const notify = useNotify();
  const transfers = useTransfers();
  const seen = useRef(new Map<string, Transfer['state']>());

  useEffect(() => {
    for (const transfer of transfers) {
      const before = seen.current.get(transfer.id);
      if (before !== transfer.state) {
        seen.current.set(transfer.id, transfer.state);
        const title = transfer.title || t('send:transfers.untitled');
        if (transfer.state === 'success') notify('success', t(transfer.toasts?.success ?? `send:transfers.toast.${transfer.kind}Success`, { title }));
        else if (transfer.state === 'failed') {
          notify('error', t(transfer.toasts?.failed ?? `send:transfers.toast.${transfer.kind}Failed`, { title }), transfer.failure ? t(transfer.failure.key, transfer.failure.values) : undefined);
        }
      }
    }
  }, [transfers, notify, t]);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!transferStore.hasActive()) return;
      // Browsers show their own text; preventDefault (and returnValue for older ones) asks.
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
  return null;
}
