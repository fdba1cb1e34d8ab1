import type { TotpRegistrationResponse } from '@shared/contract/auth-escalation';
import { useTranslation } from 'react-i18next';

/**
 * A new authentication app's key, to scan (QR code) or to type (the key in groups of four): the
 * sign-in's registration page and the account settings' setup dialog show it alike.
 */
export function TotpSecret({ registration }: { registration: TotpRegistrationResponse }) {
  const { t } = useTranslation();
  return (
    <>
      <img src={registration.qrCodeDataUrl} width={200} height={200} alt={t('auth:totpRegistration.qrAlt')} />
      <span>{t('auth:totpRegistration.manualKey')}</span>
      <code data-testid="totp-secret" style={{ fontSize: 16, letterSpacing: 1, wordBreak: 'break-all' }}>
        {registration.secret.replace(/(.{4})/g, '$1 ').trim()}
      </code>
    </>
  );
}
