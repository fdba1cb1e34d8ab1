import { Field, Input, makeStyles, Tag, TagGroup, tokens } from '@fluentui/react-components';
import { WarningFilled } from '@fluentui/react-icons';
import type { RecipientStatus } from '@shared/contract/deliveries';
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

type ChipWarning = 'invalid' | 'notRegistered' | 'noPassphrase';

/**
 * The chip warnings of SPEC §5 for one address: invalid email; not registered (known from the
 * server's look-up); no passphrase (only when an end-to-end level is chosen).
 */
export function chipWarnings(address: string, status: RecipientStatus | undefined, endToEnd: boolean): ChipWarning[] {
  if (!isValidEmail(address)) return ['invalid'];
  if (!status) return [];
  const warnings: ChipWarning[] = [];
  if (!status.registered) warnings.push('notRegistered');
  if (endToEnd && !status.hasPassphrase) warnings.push('noPassphrase');
  return warnings;
}

const WARNING_KEY: Record<ChipWarning, { chip: string; text: string }> = {
  invalid: { chip: 'send:recipients.invalidChip', text: 'send:recipients.invalidWarning' },
  notRegistered: { chip: 'send:recipients.notRegisteredChip', text: 'send:recipients.notRegisteredWarning' },
  noPassphrase: { chip: 'send:recipients.noPassphraseChip', text: 'send:recipients.noPassphraseWarning' },
};

/**
 * Recipient chips (SPEC §5): an address becomes a chip on comma, semicolon, Enter, Tab or leaving
 * the field, several at once when pasted; Backspace in the empty field removes the last chip. A
 * chip with a warning (invalid, not registered, no passphrase at levels 3/4) is marked and the
 * warning is listed under the field.
 */
export function RecipientChips({
  label,
  value,
  onChange,
  validationMessage,
  required,
  disabled,
  statuses,
  endToEnd = false,
}: {
  label: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  validationMessage?: string;
  required?: boolean;
  disabled?: boolean;
  /** The server's answer per lower-cased address (useRecipientStatus). */
  statuses?: ReadonlyMap<string, RecipientStatus>;
  /** Level 3 or 4 chosen: recipients without a passphrase are warned about. */
  endToEnd?: boolean;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [text, setText] = useState('');
  const warningsId = useId();
  const warned = value
    .map((address) => ({ address, warnings: chipWarnings(address, statuses?.get(address.toLowerCase()), endToEnd) }))
    .filter((w) => w.warnings.length > 0);
  const warningsOf = new Map(warned.map((w) => [w.address, w.warnings]));

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
                  const warnings = warningsOf.get(address) ?? [];
                  const bad = warnings.length > 0;
                  return (
                    <Tag
                      key={address}
                      value={address}
                      size="small"
                      shape="circular"
                      dismissible={!disabled}
                      className={bad ? styles.invalid : undefined}
                      icon={
                        bad ? (
                          <WarningFilled className={styles.warningIcon} role="img" aria-label={warnings.map((w) => t(WARNING_KEY[w].chip)).join(', ')} />
                        ) : undefined
                      }
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
              aria-describedby={[fieldProps['aria-describedby'], warned.length > 0 ? warningsId : undefined].filter(Boolean).join(' ') || undefined}
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
          {warned.length > 0 ? (
            <ul id={warningsId} className={styles.warnings} aria-live="polite">
              {warned.flatMap(({ address, warnings }) =>
                warnings.map((w) => (
                  <li key={`${address}-${w}`} className={styles.warning} data-warning={w}>
                    <WarningFilled className={styles.warningIcon} aria-hidden />
                    {t(WARNING_KEY[w].text, { address })}
                  </li>
                )),
              )}
            </ul>
          ) : null}
        </div>
      )}
    </Field>
  );
}
