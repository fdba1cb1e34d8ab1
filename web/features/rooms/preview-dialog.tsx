import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, Spinner, Textarea } from '@fluentui/react-components';
import { EDITABLE_MAX_BYTES } from '@shared/contract/room-preview';
import { Alert } from '@web/components/alert';
import { useNotify } from '@web/lib/toasts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SaveConflictDialog, UnsavedChangesDialog } from './preview/edit-dialogs';
import { EDITABLE_KINDS } from './preview/preview-kind';
import { KindView } from './preview/kind-view';
import { SaveConflictError, type Loaded, type PreviewSource } from './preview/preview-source';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(960px, 95vw)', width: '100%' },
  editor: { width: '100%', '& textarea': { minHeight: '50vh', maxHeight: '70vh', fontFamily: 'monospace' } },
});

type Shown = { state: 'loading' } | { state: 'loaded'; loaded: Loaded } | { state: 'failed'; reload: boolean };
type Asking = 'none' | 'unsaved' | 'conflict';

/**
 * Preview and edit of a room file (SPEC §2 "preview and edit dialogs", §4 save conflict; issue 31 §3),
 * in plain and Secure rooms alike: the source loads (plain: the server's preview; Secure: decrypted
 * in the crypto Worker) and each kind has its viewer (preview/). Text, Markdown, CSV and JSON can be
 * edited by OWNERs and EDITORs; a save is the file's next version with If-Match; a newer version
 * saved meanwhile opens the conflict dialog; closing with unsaved changes asks first.
 */
export function PreviewDialog({ source, onClose }: { source: PreviewSource | null; onClose: () => void }) {
  return source ? <PreviewSurface key={source.id} source={source} onClose={onClose} /> : null;
}

function PreviewSurface({ source, onClose }: { source: PreviewSource; onClose: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const [shown, setShown] = useState<Shown>({ state: 'loading' });
  const [loads, setLoads] = useState(0);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [asking, setAsking] = useState<Asking>('none');
  const [closeAfterSave, setCloseAfterSave] = useState(false);
  useEffect(() => track(ANALYTICS_ACTIONS.fileViewed), []);
  // What the unsaved-changes question is about: closing the dialog, or only leaving edit mode.
  const [unsavedThen, setUnsavedThen] = useState<'close' | 'stop'>('close');
  const [busy, setBusy] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  const name = source.name;

  useEffect(() => {
    const controller = new AbortController();
    let revoke: string | undefined;
    let close: (() => void) | undefined;
    setShown({ state: 'loading' });
    source.load(controller.signal).then(
      (loaded) => {
        if ('revoke' in loaded && loaded.revoke) revoke = loaded.src;
        if ('close' in loaded) close = loaded.close;
        if (controller.signal.aborted) return close?.();
        setShown({ state: 'loaded', loaded });
        if ('text' in loaded) setDraft(loaded.text);
      },
      () => {
        if (!controller.signal.aborted) setShown({ state: 'failed', reload: loads > 0 });
      },
    );
    return () => {
      controller.abort();
      if (revoke) URL.revokeObjectURL(revoke);
      close?.();
    };
  }, [source, loads]);

  const loaded = shown.state === 'loaded' ? shown.loaded : null;
  const text = loaded && 'text' in loaded ? loaded : null;
  const dirty = editing && text !== null && draft !== text.text;
  const canEdit = source.editable && text !== null && EDITABLE_KINDS.includes(text.kind) && new Blob([text.text]).size <= EDITABLE_MAX_BYTES;

  const stopEditing = () => {
    setEditing(false);
    setSaveFailed(false);
    if (text) setDraft(text.text);
  };

  const save = async (thenClose: boolean) => {
    if (!text) return;
    setBusy(true);
    setSaveFailed(false);
    try {
      const etag = await source.save(draft, text.type, text.etag);
      track(ANALYTICS_ACTIONS.fileSaved);
      setShown({ state: 'loaded', loaded: { ...text, text: draft, etag } });
      setEditing(false);
      setAsking('none');
      notify('success', t('rooms:preview.saved', { name }));
      if (thenClose) onClose();
    } catch (error) {
      if (error instanceof SaveConflictError) {
        setCloseAfterSave(thenClose);
        setAsking('conflict');
      } else {
        setAsking('none');
        setSaveFailed(true);
      }
    } finally {
      setBusy(false);
    }
  };

  const saveCopy = async () => {
    if (!text) return;
    setBusy(true);
    try {
      const copy = await source.saveCopy(draft, text.type);
      notify('success', t('rooms:preview.copySaved', { name: copy }));
      setAsking('none');
      setEditing(false);
      if (closeAfterSave) onClose();
      else setLoads((n) => n + 1);
    } catch {
      setAsking('none');
      setSaveFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const loadNew = () => {
    setAsking('none');
    setEditing(false);
    setLoads((n) => n + 1);
  };

  const ask = (then: 'close' | 'stop') => {
    setUnsavedThen(then);
    setAsking('unsaved');
  };
  const close = () => (dirty ? ask('close') : onClose());

  return (
    <Dialog open onOpenChange={(_e, data) => (data.open ? undefined : close())}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{t('rooms:preview.title', { name })}</DialogTitle>
          <DialogContent>
            {shown.state === 'loading' ? <Spinner label={t('common:loading')} /> : null}
            {shown.state === 'failed' ? <Alert type="error">{t(shown.reload ? 'rooms:preview.newVersionFailed' : 'rooms:preview.failed', { name })}</Alert> : null}
            {saveFailed ? <Alert type="error">{t('rooms:preview.saveFailed', { name })}</Alert> : null}
            {loaded && !editing ? <KindView loaded={loaded} name={name} /> : null}
            {text && editing ? (
              <Textarea className={styles.editor} value={draft} onChange={(_e, data) => setDraft(data.value)} aria-label={t('rooms:preview.editorLabel', { name })} resize="vertical" />
            ) : null}
          </DialogContent>
          <DialogActions>
            {canEdit && !editing ? <Button
                onClick={() => {
                  track(ANALYTICS_ACTIONS.fileEdited);
                  setEditing(true);
                }}
              >{t('rooms:preview.edit')}</Button> : null}
            {editing ? (
              <>
                <Button appearance="primary" disabled={busy || !dirty} onClick={() => void save(false)}>
                  {busy ? t('rooms:preview.saving') : t('rooms:preview.save')}
                </Button>
                <Button disabled={busy} onClick={() => (dirty ? ask('stop') : stopEditing())}>
                  {t('rooms:preview.stopEditing')}
                </Button>
              </>
            ) : null}
            <Button appearance={editing ? 'secondary' : 'primary'} onClick={close}>
              {t('rooms:preview.close')}
            </Button>
          </DialogActions>
        </DialogBody>
        {asking === 'unsaved' ? (
          <UnsavedChangesDialog
            name={name}
            busy={busy}
            onSave={() => void save(unsavedThen === 'close')}
            onDiscard={() => {
              setAsking('none');
              if (unsavedThen === 'close') onClose();
              else stopEditing();
            }}
            onKeepEditing={() => setAsking('none')}
          />
        ) : null}
        {asking === 'conflict' ? <SaveConflictDialog name={name} busy={busy} onSaveCopy={() => void saveCopy()} onLoadNew={loadNew} onKeepEditing={() => setAsking('none')} /> : null}
      </DialogSurface>
    </Dialog>
  );
}
