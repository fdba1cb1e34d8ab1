import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import type { AlertType } from '@shared/theme/constants';
import type { ReactNode } from 'react';

/** Alert of SPEC §9 (success, warning, error, info) with optional title and action. */
export function Alert({ type, title, children, action }: { type: AlertType; title?: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <MessageBar intent={type} layout="multiline" style={{ marginBottom: 16 }} role={type === 'error' ? 'alert' : 'status'}>
      <MessageBarBody>
        {title ? <MessageBarTitle>{title}</MessageBarTitle> : null}
        {children}
      </MessageBarBody>
      {action}
    </MessageBar>
  );
}
