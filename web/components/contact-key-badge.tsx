import { Badge, Button, makeStyles } from '@fluentui/react-components';
import { getUserPublicKeys } from '@shared/api/endpoints/secupass';
import type { PublicKey } from '@shared/contract/secupass';
import { contactPinsFor } from '@shared/transfer/contact-pins';
import { markContactVerified } from '@shared/transfer/e2e';
import { VerifyContactButton } from '@web/components/verify-contact-dialog';
import { apiClient } from '@web/lib/api-client';
import { contactKeyState, type ContactKeyState } from '@web/lib/contact-verification';
import { cryptoApi, useSecuPassSession, type SecuPassSession } from '@web/lib/crypto';
import { useNotify } from '@web/lib/toasts';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useTranslation } from 'react-i18next';
import useSWR, { useSWRConfig } from 'swr';

const useStyles = makeStyles({
  row: { display: 'inline-flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
});

export const CONTACT_KEY_BADGE_KEY = 'contact-key-badge';

interface KeyStateAnswer {
  state: ContactKeyState;
  fingerprint: string;
}

/**
 * The state of a contact's live encryption key in the user's pin list. The fingerprint and key id
 * are recomputed from the key (a server's claim is never trusted); a key whose id does not belong
 * to it is never more than unseen. `key`: the live key when the caller has it, else fetched.
 */
async function keyStateOf(session: SecuPassSession, userUuid: string, key: Pick<PublicKey, 'keyId' | 'publicKey'> | undefined): Promise<KeyStateAnswer | null> {
  const live = key ?? (await getUserPublicKeys(apiClient, userUuid)).keys.find((k) => k.usage === 'encryption' && k.retired !== true);
  if (!live) return null;
  const computed = await cryptoApi.fingerprint({ publicKey: live.publicKey });
  if (computed.keyId !== live.keyId) return { state: 'unseen', fingerprint: computed.fingerprint };
  const pins = await contactPinsFor({ client: apiClient, crypto: cryptoApi, keys: session.keys, ownerUserId: async () => session.userUuid });
  const contactId = `${userUuid}:encryption`;
  const pinned = await pins.get(contactId);
  return { state: contactKeyState({ pinned, verified: pins.isVerified(contactId, computed.fingerprint) ? computed.fingerprint : undefined }, computed.fingerprint), fingerprint: computed.fingerprint };
}

const BADGE: Record<ContactKeyState, { color: 'success' | 'warning' | 'informative'; appearance: 'filled' | 'outline' }> = {
  verified: { color: 'success', appearance: 'filled' },
  pinned: { color: 'warning', appearance: 'outline' },
  unseen: { color: 'informative', appearance: 'outline' },
};

/**
 * Verified / not yet verified / new key next to a recipient of an end-to-end delivery (issue 12 §4),
 * from the user's own pin list (contact pins, read only while the SecuPass is unlocked). Locked:
 * nothing, or with `offerUnlock` a button to unlock. With `verify` the key that is not verified yet
 * can be verified here (fingerprints, QR codes, scanning).
 */
export function ContactKeyBadge({
  userUuid,
  encryptionKey,
  offerUnlock = false,
  verify,
}: {
  userUuid: string;
  /** The contact's live encryption key, when the caller has it (else fetched by user id). */
  encryptionKey?: Pick<PublicKey, 'keyId' | 'publicKey'> | undefined;
  offerUnlock?: boolean;
  /** Offer verification for this contact (their address, for the dialog). */
  verify?: { email: string };
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const session = useSecuPassSession();
  const unlock = useUnlockedKeys('unlock');
  const { mutate } = useSWRConfig();
  const { data } = useSWR(session ? [CONTACT_KEY_BADGE_KEY, session.keys.signing.keyId, userUuid, encryptionKey?.keyId ?? ''] : null, () => keyStateOf(session!, userUuid, encryptionKey), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  if (!session) {
    return offerUnlock ? (
      <Button size="small" appearance="subtle" onClick={() => void unlock()}>
        {t('deliveries:verify.unlockToCheck')}
      </Button>
    ) : null;
  }
  if (!data) return null;
  const badge = (
    <Badge size="small" appearance={BADGE[data.state].appearance} color={BADGE[data.state].color} data-testid="contact-key-state">
      {t(`deliveries:verify.state.${data.state}`)}
    </Badge>
  );
  if (!verify || data.state === 'verified') return badge;
  return (
    <span className={styles.row}>
      {badge}
      <VerifyContactButton
        contact={{ email: verify.email, userUuid, usage: 'encryption', fingerprint: data.fingerprint }}
        own={{ usage: 'encryption', fingerprint: session.keys.encryption.fingerprint, userUuid: session.userUuid }}
        onVerified={async () => {
          const saved = await markContactVerified({ client: apiClient, e2e: { crypto: cryptoApi, keys: session.keys }, userUuid, usage: 'encryption', fingerprint: data.fingerprint });
          if (!saved) throw new Error('The pin store keeps no verifications');
          notify('success', t('deliveries:verify.done', { email: verify.email }));
          await mutate((key) => Array.isArray(key) && key[0] === CONTACT_KEY_BADGE_KEY);
        }}
      />
    </span>
  );
}
