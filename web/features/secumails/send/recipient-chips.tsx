import { Field, Input, makeStyles, Tag, TagGroup, tokens } from '@fluentui/react-components';
import { WarningFilled } from '@fluentui/react-icons';
import { isValidEmail, normaliseAddresses } from '@shared/deliveries';
import { useId, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  box: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: '4px',
    padding: '4px',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    background: tokens.colorNeutralBackground1,
  },
  input: { flex: 1, minWidth: '200px', border: 'none' },
  invalid: { background: tokens.colorPaletteYellowBackground2 },
  warnings: { margin: '4px 0 0', padding: 0, listStyle: 'none', color: tokens.colorNeutralForeground1 },
  warning: { display: 'flex', alignItems: 'center', gap: '4px' },
  warningIcon: { color: tokens.colorPaletteDarkOrangeForeground1 },
});

/** Addresses typed or pasted at once: split at commas, semicolons, blanks and new lines. */
export function splitAddresses(text: string): string[] {
  return normaliseAddresses(text.split(/[\s,;]+/));
}

/**
 * Recipient chips (SPEC §5): an address becomes a chip on comma, semicolon, Enter, Tab or leaving
 * the field, several at once when pasted; Backspace in the empty field removes the last chip. An
 * invalid address stays as a chip with a warning (SPEC §5 chip warnings) until removed.
 */
export function RecipientChips({
  label,
  value,
  onChange,
  validationMessage,
  required,
  disabled,
}: {
  label: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  validationMessage?: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [text, setText] = useState('');
  const warningsId = useId();
  const invalid = value.filter((a) => !isValidEmail(a));

  function commit(raw: string): boolean {
    const added = splitAddresses(raw);
    setText('');
    if (added.length === 0) return false;
    onChange(normaliseAddresses([...value, ...added]));
    return true;
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',' || event.key === ';') {
      event.preventDefault();
      commit(text);
    } else if (event.key === 'Tab' && text.trim() !== '') {
      // Tab keeps moving focus; the typed address becomes a chip on the way.
      commit(text);
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  }

  function onPaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text');
    if (/[\s,;]/.test(pasted.trim())) {
      event.preventDefault();
      commit(`${text} ${pasted}`);
    }
  }

  return (
    <Field label={label} required={required} validationMessage={validationMessage} validationState={validationMessage ? 'error' : 'none'} hint={t('send:recipients.hint')}>
      {(fieldProps) => (
        <div>
          <div className={styles.box}>
            {value.length > 0 ? (
              <TagGroup aria-label={label} onDismiss={(_, data) => onChange(value.filter((a) => a !== data.value))}>
                {value.map((address) => {
                  const bad = !isValidEmail(address);
                  return (
                    <Tag
                      key={address}
                      value={address}
                      size="small"
                      shape="circular"
                      dismissible={!disabled}
                      className={bad ? styles.invalid : undefined}
                      icon={bad ? <WarningFilled className={styles.warningIcon} aria-label={t('send:recipients.invalidChip')} /> : undefined}
                      dismissIcon={{ 'aria-label': t('send:recipients.remove', { address }) }}
                    >
                      {address}
                    </Tag>
                  );
                })}
              </TagGroup>
            ) : null}
            <Input
              {...fieldProps}
              className={styles.input}
              appearance="underline"
              disabled={disabled}
              value={text}
              inputMode="email"
              autoComplete="email"
              aria-describedby={[fieldProps['aria-describedby'], invalid.length > 0 ? warningsId : undefined].filter(Boolean).join(' ') || undefined}
              onChange={(_, data) => {
                // Typing a separator (also from autofill) commits what is before it.
                if (/[,;]/.test(data.value)) commit(data.value);
                else setText(data.value);
              }}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              onBlur={() => commit(text)}
            />
          </div>
          {invalid.length > 0 ? (
            <ul id={warningsId} className={styles.warnings} aria-live="polite">
              {invalid.map((address) => (
                <li key={address} className={styles.warning}>
                  <WarningFilled className={styles.warningIcon} aria-hidden />
                  {t('send:recipients.invalidWarning', { address })}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
    </Field>
  );
}
