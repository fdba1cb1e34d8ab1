import { Alert } from '@web/components/alert';
import { useTranslation } from 'react-i18next';
import type { AuthMessage } from './login-flow';

/** The SPEC §8 message of a sign-in failure, announced to screen readers. */
export function AuthMessageBar({ message }: { message: AuthMessage | null }) {
  const { t } = useTranslation();
  if (!message) return null;
  return <Alert type="error">{t(`auth:errors.${message}`)}</Alert>;
}
