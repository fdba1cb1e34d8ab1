import { Field, Input, InteractionTag, InteractionTagPrimary, InteractionTagSecondary, makeStyles, mergeClasses, TagGroup, tokens } from '@fluentui/react-components';
import { WarningFilled } from '@fluentui/react-icons';
import type { RecipientStatus } from '@shared/contract/deliveries';
import { isValidEmail, normaliseAddresses } from '@shared/deliveries';
import { ContactKeyBadge } from '@web/components/contact-key-badge';
import { partnerHost } from '@web/lib/partner-host';
import { useId, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
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
  input: { flex: 1, minWidth: '120px', maxWidth: '100%', border: 'none' },
  tags: { flexWrap: 'wrap', gap: '4px', maxWidth: '100%', minWidth: 0 },
  chip: { maxWidth: '100%', minWidth: 0 },
  chipText: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  edit: { minWidth: '160px', maxWidth: '100%' },
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
 * the field, several at once when pasted. Only the chip's × removes it, or Backspace/Delete while
 * the chip has the focus (Backspace in the empty field first moves to the last chip); a click on
 * the address edits it in place (Enter or leaving keeps the change, Escape or an empty text keeps
 * the address as it was). A chip with a warning (invalid, not registered, no passphrase at levels
 * 3/4) is marked and the warning is listed under the field.
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
  const [editing, setEditing] = useState<{ address: string; text: string } | null>(null);
  const warningsId = useId();
  const chipIds = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const chipRefs = useRef(new Map<string, HTMLButtonElement>());
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

  function remove(address: string) {
    const index = value.indexOf(address);
    const next = value.filter((a) => a !== address);
    onChange(next);
    // Focus stays in the field: on the chip that took the removed one's place, else the input.
    const neighbour = next[Math.min(index, next.length - 1)];
    queueMicrotask(() => (neighbour !== undefined && index < next.length ? chipRefs.current.get(neighbour) : inputRef.current)?.focus());
  }

  function finishEdit(keep: boolean) {
    if (!editing) return;
    const replacement = keep ? splitAddresses(editing.text) : [];
    setEditing(null);
    if (replacement.length > 0) {
      const index = value.indexOf(editing.address);
      onChange(normaliseAddresses([...value.slice(0, index), ...replacement, ...value.slice(index + 1)]));
    }
  }

  function onEditKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      finishEdit(true);
      inputRef.current?.focus();
    } else if (event.key === 'Escape') {
      // Only the edit ends (a dialog around the form stays open).
      event.preventDefault();
      event.stopPropagation();
      const address = editing?.address;
      finishEdit(false);
      queueMicrotask(() => (address ? chipRefs.current.get(address) : undefined)?.focus());
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',' || event.key === ';') {
      event.preventDefault();
      commit(text);
    } else if (event.key === 'Tab' && text.trim() !== '') {
      // Tab keeps moving focus; the typed address becomes a chip on the way.
      commit(text);
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      // Never removes on its own: the last chip takes the focus, a second Backspace removes it.
      event.preventDefault();
      const last = value.at(-1);
      if (last !== undefined) chipRefs.current.get(last)?.focus();
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
              <TagGroup aria-label={label} className={styles.tags} onDismiss={(_, data) => remove(data.value)}>
                {value.map((address, index) => {
                  const warnings = warningsOf.get(address) ?? [];
                  const bad = warnings.length > 0;
                  if (editing?.address === address) {
                    return (
                      <Input
                        key={address}
                        size="small"
                        className={styles.edit}
                        autoFocus
                        value={editing.text}
                        aria-label={t('send:recipients.edit', { address })}
                        onChange={(_, data) => setEditing({ address, text: data.value })}
                        onKeyDown={onEditKeyDown}
                        onBlur={() => finishEdit(true)}
                      />
                    );
                  }
                  return (
                    <InteractionTag key={address} value={address} size="small" shape="circular" disabled={disabled} className={mergeClasses(styles.chip, bad ? styles.invalid : undefined)}>
                      <InteractionTagPrimary
                        ref={(element) => {
                          if (element) chipRefs.current.set(address, element);
                          else chipRefs.current.delete(address);
                        }}
                        hasSecondaryAction={!disabled}
                        title={t('send:recipients.editHint')}
                        primaryText={{ className: styles.chipText }}
                        icon={
                          bad ? (
                            <WarningFilled className={styles.warningIcon} role="img" aria-label={warnings.map((w) => t(WARNING_KEY[w].chip)).join(', ')} />
                          ) : undefined
                        }
                        onClick={() => setEditing({ address, text: address })}
                        onKeyDown={(event) => {
                          if (event.key === 'Delete' || event.key === 'Backspace') {
                            event.preventDefault();
                            remove(address);
                          } else if (event.key === 'F2') {
                            event.preventDefault();
                            setEditing({ address, text: address });
                          }
                        }}
                      >
                        {address}
                        {endToEnd && statuses?.get(address.toLowerCase())?.userUuid ? (
                          <>
                            {' '}
                            <ContactKeyBadge userUuid={statuses.get(address.toLowerCase())!.userUuid!} encryptionKey={statuses.get(address.toLowerCase())!.encryptionKey} />
                          </>
                        ) : null}
                        {endToEnd && statuses?.get(address.toLowerCase())?.partnerServer ? (
                          // The key came from the partner's signed look-up; the pin and personal verification work as for any contact.
                          <span data-testid="partner-server-key"> {t('send:recipients.partnerServer', { server: partnerHost(statuses.get(address.toLowerCase())!.partnerServer!) })}</span>
                        ) : null}
                      </InteractionTagPrimary>
                      {disabled ? null : (
                        // Named by its own label only (Fluent would prefix the address).
                        <InteractionTagSecondary id={`${chipIds}-remove-${index}`} aria-labelledby={`${chipIds}-remove-${index}`} aria-label={t('send:recipients.remove', { address })} />
                      )}
                    </InteractionTag>
                  );
                })}
              </TagGroup>
            ) : null}
            <Input
              {...fieldProps}
              ref={inputRef}
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
