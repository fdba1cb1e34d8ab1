import { Toast, ToastBody, ToastTitle, useToastController } from '@fluentui/react-components';
import type { AlertType } from '@shared/theme/constants';
import { useCallback } from 'react';

export const TOASTER_ID = 'kuvert-toaster';

/**
 * Shows a toast in the app's single Toaster (5 s, one at a time, F8; SPEC §9). `replaces`: a
 * toast of the same kind still showing or waiting is replaced by this one (its text is out of
 * date: "user B created" must not wait behind "user A created").
 */
export function useNotify(): (intent: AlertType, title: string, body?: string, options?: { replaces?: string }) => void {
  const { dispatchToast, updateToast } = useToastController(TOASTER_ID);
  return useCallback(
    (intent: AlertType, title: string, body?: string, options?: { replaces?: string }) => {
      const content = (
        <Toast>
          <ToastTitle>{title}</ToastTitle>
          {body ? <ToastBody>{body}</ToastBody> : null}
        </Toast>
      );
      if (!options?.replaces) return dispatchToast(content, { intent });
      // A new one is made; one of that id already there (shown or queued) gets the new text instead.
      dispatchToast(content, { intent, toastId: options.replaces });
      updateToast({ toastId: options.replaces, content, intent });
    },
    [dispatchToast, updateToast],
  );
}
