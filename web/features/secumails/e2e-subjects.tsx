import { Button } from '@fluentui/react-components';
import { LockOpenRegular } from '@fluentui/react-icons';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { encryptsMessage } from '@shared/contract/security-levels';
import type { UnlockedKeys } from '@shared/crypto/service';
import { openE2eDelivery } from '@shared/transfer/e2e';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi, secuPassKeys, useSecuPassSession } from '@web/lib/crypto';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Level-4 subjects travel only inside the encrypted, signed manifest: the server's lists and views
 * carry an empty subject. Once the user's keys are unlocked, the subject is decrypted through the
 * crypto Worker (`openE2eDelivery`: the caller's own key copy, the manifest's signature checked)
 * and kept here, in the page's memory, until the keys are locked again (sign-out, lock, reload).
 */
type Entry = { state: 'pending' } | { state: 'revealed'; subject: string } | { state: 'failed' };

let entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
let queue: Promise<void> = Promise.resolve();

function set(deliveryUuid: string, entry: Entry | null): void {
  entries = new Map(entries);
  if (entry) entries.set(deliveryUuid, entry);
  else entries.delete(deliveryUuid);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

// Locking the keys forgets what they revealed.
secuPassKeys.subscribe(() => {
  if (secuPassKeys.get() || entries.size === 0) return;
  entries = new Map();
  for (const listener of listeners) listener();
});

/** The delivery view opened a level-4 delivery itself: its subject is known. */
export function rememberE2eSubject(deliveryUuid: string, subject: string): void {
  set(deliveryUuid, { state: 'revealed', subject });
}

/** Decrypts the subject of one delivery (one at a time: the Worker serves the page's downloads too). */
function reveal(deliveryUuid: string, keys: UnlockedKeys): void {
  if (entries.has(deliveryUuid)) return;
  set(deliveryUuid, { state: 'pending' });
  queue = queue.then(async () => {
    try {
      const opened = await openE2eDelivery({ client: apiClient, deliveryUuid, e2e: { crypto: cryptoApi, keys } });
      await opened.close();
      // Keys locked meanwhile: keep nothing.
      if (secuPassKeys.get()?.keys !== keys) set(deliveryUuid, null);
      else set(deliveryUuid, opened.message ? { state: 'revealed', subject: opened.message.subject } : { state: 'failed' });
    } catch (error) {
      // No own copy (waiting for a release), a changed sender key, a bad signature: stays "Encrypted message".
      console.debug('[e2e] subject not revealed', error);
      set(deliveryUuid, secuPassKeys.get()?.keys === keys ? { state: 'failed' } : null);
    }
  });
}

/** Only level 4 hides its subject. */
const hidesSubject = (delivery: { securityLevel: SecurityLevel; subject: string }) => encryptsMessage(delivery.securityLevel) && !delivery.subject;

/**
 * The subject to show for a delivery: the server's, or at level 4 the decrypted one (decrypted
 * here as soon as the keys are unlocked), else undefined.
 */
export function useE2eSubject(delivery: { deliveryUuid: string; securityLevel: SecurityLevel; subject: string }): string | undefined {
  const session = useSecuPassSession();
  const all = useSyncExternalStore(subscribe, () => entries);
  const hidden = hidesSubject(delivery);
  useEffect(() => {
    if (hidden && session) reveal(delivery.deliveryUuid, session.keys);
  }, [hidden, session, delivery.deliveryUuid]);
  if (!hidden) return delivery.subject || undefined;
  const entry = all.get(delivery.deliveryUuid);
  return entry?.state === 'revealed' ? entry.subject : undefined;
}

/**
 * A subject as lists show it. A level-4 subject while the keys are locked: "Encrypted message"
 * and a button that unlocks the keys, after which every level-4 subject on screen is decrypted.
 */
export function SubjectText({ delivery, noSubjectKey = 'deliveries:fields.noSubject' }: { delivery: { deliveryUuid: string; securityLevel: SecurityLevel; subject: string }; noSubjectKey?: string }) {
  const { t } = useTranslation();
  const subject = useE2eSubject(delivery);
  if (subject) return <>{subject}</>;
  return <>{hidesSubject(delivery) ? t('deliveries:e2e.encryptedSubject') : t(noSubjectKey)}</>;
}

/** The unlock-to-reveal button beside a hidden level-4 subject (nothing once the keys are unlocked). */
export function RevealSubjectButton({ delivery }: { delivery: { deliveryUuid: string; securityLevel: SecurityLevel; subject: string } }) {
  const { t } = useTranslation();
  const session = useSecuPassSession();
  const unlockedKeys = useUnlockedKeys('decrypt');
  const [busy, setBusy] = useState(false);
  if (!hidesSubject(delivery) || session) return null;
  return (
    <Button
      size="small"
      appearance="subtle"
      icon={<LockOpenRegular />}
      disabled={busy}
      aria-label={t('deliveries:e2e.revealSubject')}
      title={t('deliveries:e2e.revealSubject')}
      onClick={() => {
        setBusy(true);
        void unlockedKeys().finally(() => setBusy(false));
      }}
    />
  );
}
