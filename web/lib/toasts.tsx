import { Toast, ToastBody, ToastTitle, useToastController } from '@fluentui/react-components';
import type { AlertType } from '@shared/theme/constants';
import { useCallback } from 'react';

export const TOASTER_ID = 'kuvert-toaster';

/** Shows a toast in the app's single Toaster (5 s, one at a time, F8; SPEC §9). */
export function useNotify(): (intent: AlertType, title: string, body?: string) => void {
  const { dispatchToast } = useToastController(TOASTER_ID);
  return useCallback(
    (intent: AlertType, title: string, body?: string) => {
      dispatchToast(
        <Toast>
          <ToastTitle>{title}</ToastTitle>
          {body ? <ToastBody>{body}</ToastBody> : null}
        </Toast>,
        { intent },
      );
    },
    [dispatchToast],
  );
}
