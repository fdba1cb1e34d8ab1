import { Button, Caption1, Field, Input, Label, makeStyles, tokens } from '@fluentui/react-components';
import { FORM_SIGNATURE_MAX, type CustomField } from '@shared/contract/forms';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';

const WIDTH = 400;
const HEIGHT = 150;

const useStyles = makeStyles({
  field: { display: 'grid', gap: '4px' },
  canvas: { width: `${WIDTH}px`, maxWidth: '100%', height: `${HEIGHT}px`, border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, backgroundColor: '#ffffff', touchAction: 'none' },
  bar: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** The typed name drawn on a white canvas: a keyboard user's signature, stored as PNG like a drawn one. */
function typedSignature(name: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, WIDTH, HEIGHT);
  context.fillStyle = '#000000';
  context.font = 'italic 36px cursive';
  context.textBaseline = 'middle';
  context.fillText(name, 16, HEIGHT / 2, WIDTH - 32);
  return canvas.toDataURL('image/png');
}

interface SignatureFieldProps {
  field: CustomField;
  id: string;
  problem: string | undefined;
  /** The PNG data URL, or '' when empty. */
  onValue: (value: string) => void;
}

/**
 * A signature field (SPEC §3): drawn with the mouse, a pen or a finger (signature_pad), or — the
 * keyboard alternative — the typed name rendered to the same PNG. The value is a PNG data URL;
 * the server checks its type and size (FORM_SIGNATURE_MAX).
 */
export function SignatureField({ field, id, problem, onValue }: SignatureFieldProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState('');
  const [tooLarge, setTooLarge] = useState(false);

  const emit = (value: string) => {
    const fits = value.length <= FORM_SIGNATURE_MAX;
    setTooLarge(!fits);
    onValue(fits ? value : '');
  };

  useEffect(() => {
    if (typing || !canvas.current) return undefined;
    const element = canvas.current;
    element.width = WIDTH;
    element.height = HEIGHT;
    const instance = new SignaturePad(element, { backgroundColor: '#ffffff' });
    const ended = () => emit(instance.isEmpty() ? '' : instance.toDataURL('image/png'));
    instance.addEventListener('endStroke', ended);
    pad.current = instance;
    return () => {
      instance.removeEventListener('endStroke', ended);
      instance.off();
      pad.current = null;
    };
    // emit/onValue change every render; the pad lives as long as the drawing mode.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typing]);

  const clear = () => {
    pad.current?.clear();
    setTyped('');
    emit('');
  };

  const message = tooLarge ? t('formsShare:problems.signatureTooLarge') : problem;
  return (
    <div className={styles.field} role="group" aria-labelledby={`${id}-label`}>
      <Label id={`${id}-label`} required={field.required}>
        {field.name}
      </Label>
      <Caption1 id={`${id}-hint`}>{field.hint || t('formsShare:signature.hint')}</Caption1>
      {typing ? (
        <Field label={t('formsShare:signature.typed')}>
          <Input
            value={typed}
            onChange={(_e, d) => {
              setTyped(d.value);
              emit(d.value.trim() === '' ? '' : typedSignature(d.value.trim()));
            }}
          />
        </Field>
      ) : (
        <canvas ref={canvas} id={id} className={styles.canvas} role="img" aria-label={t('formsShare:signature.pad', { name: field.name })} aria-describedby={`${id}-hint`} />
      )}
      <div className={styles.bar}>
        <Button onClick={clear}>{t('formsShare:signature.clear')}</Button>
        <Button
          onClick={() => {
            clear();
            setTyping((v) => !v);
          }}
        >
          {typing ? t('formsShare:signature.drawInstead') : t('formsShare:signature.typeInstead')}
        </Button>
      </div>
      {message ? (
        <Caption1 role="alert" className={styles.error}>
          {message}
        </Caption1>
      ) : null}
    </div>
  );
}
