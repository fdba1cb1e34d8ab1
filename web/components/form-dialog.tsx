import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import type { CSSProperties, FormEvent, ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';

export interface FormDialogProps {
  open: boolean;
  /** Cancel, Escape and a click outside: the caller resets its form and closes. */
  onClose: () => void;
  title: ReactNode;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void | Promise<void>;
  submitLabel: ReactNode;
  /** A call is under way, or the form cannot be sent yet. */
  submitDisabled?: boolean;
  formRef?: Ref<HTMLFormElement>;
  surfaceClassName?: string;
  contentClassName?: string;
  contentStyle?: CSSProperties;
  children: ReactNode;
}

/**
 * A dialog that is one form: title, fields, Cancel and the primary submit button (Enter submits).
 * The form checks its fields itself (`noValidate`: the field messages, not the browser's bubbles).
 */
export function FormDialog({ open, onClose, title, onSubmit, submitLabel, submitDisabled, formRef, surfaceClassName, contentClassName, contentStyle, children }: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(_e, data) => (data.open ? undefined : onClose())}>
      <DialogSurface className={surfaceClassName}>
        <form ref={formRef} onSubmit={(event) => void onSubmit(event)} noValidate>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={contentClassName} style={contentStyle}>
              {children}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose}>
                {t('common:actions.cancel')}
              </Button>
              <Button type="submit" appearance="primary" disabled={submitDisabled}>
                {submitLabel}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
