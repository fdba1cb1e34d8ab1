import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Text } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

/** Closing (or leaving edit mode) with unsaved changes: save, discard, or keep editing (SPEC §4). */
export function UnsavedChangesDialog({ name, busy, onSave, onDiscard, onKeepEditing }: { name: string; busy: boolean; onSave: () => void; onDiscard: () => void; onKeepEditing: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open modalType="alert" onOpenChange={(_e, data) => (data.open ? undefined : onKeepEditing())}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('rooms:preview.unsavedTitle')}</DialogTitle>
          <DialogContent>
            <Text as="p">{t('rooms:preview.unsavedBody', { name })}</Text>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" disabled={busy} onClick={onSave}>
              {t('rooms:preview.save')}
            </Button>
            <Button disabled={busy} onClick={onDiscard}>
              {t('rooms:preview.discard')}
            </Button>
            <Button disabled={busy} onClick={onKeepEditing}>
              {t('rooms:preview.keepEditing')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/**
 * Someone else saved a newer version while this one was edited (the server's 412, SPEC §4 "save
 * conflict"): keep my changes as a copy, or load the new version (my changes are erased: it says so).
 */
export function SaveConflictDialog({ name, busy, onSaveCopy, onLoadNew, onKeepEditing }: { name: string; busy: boolean; onSaveCopy: () => void; onLoadNew: () => void; onKeepEditing: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open modalType="alert" onOpenChange={(_e, data) => (data.open ? undefined : onKeepEditing())}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('rooms:preview.conflictTitle')}</DialogTitle>
          <DialogContent>
            <Text as="p">{t('rooms:preview.conflictBody', { name })}</Text>
            <Text as="p">{t('rooms:preview.loadNewWarning')}</Text>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" disabled={busy} onClick={onSaveCopy}>
              {t('rooms:preview.saveCopy')}
            </Button>
            <Button disabled={busy} onClick={onLoadNew}>
              {t('rooms:preview.loadNew')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
