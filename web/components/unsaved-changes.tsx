import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { useEffect } from 'react';
import { useBlocker, type Blocker } from 'react-router';

/**
 * While `dirty`, leaving for another page is held (the caller shows `UnsavedChangesDialog`) and
 * closing or reloading the tab asks the browser's own question.
 */
export function useUnsavedChangesGuard(dirty: boolean): Blocker {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return blocker;
}

export interface UnsavedChangesLabels {
  title: string;
  text: string;
  stay: string;
  leave: string;
}

/** "Leave without saving?" for a held navigation: stay (the default) or leave. */
export function UnsavedChangesDialog({ blocker, labels }: { blocker: Blocker; labels: UnsavedChangesLabels }) {
  return (
    <Dialog open={blocker.state === 'blocked'} modalType="alert" onOpenChange={(_event, data) => (!data.open ? blocker.reset?.() : undefined)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{labels.title}</DialogTitle>
          <DialogContent>{labels.text}</DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={() => blocker.reset?.()}>
              {labels.stay}
            </Button>
            <Button onClick={() => blocker.proceed?.()}>{labels.leave}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
