import { focusFirstInvalid, sixDigitCodeMessage } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { loginFlow, type AuthMessage } from './login-flow';
import { useLoginAttempt } from './use-login-attempt';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/**
 * The code step of a two-factor sign-in, the same on the authentication and the registration
 * page: the code field, its check (focus on the field when it is wrong), POST /auth with
 * `j_auth_app_code`, and the message of a refused code (the field is emptied).
 */
export function useAuthAppCodeStep(kind: 'authentication' | 'registration') {
  const { t } = useTranslation();
  const { attempt, pending } = useLoginAttempt();
  const formRef = useRef<HTMLFormElement>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<AuthMessage | null>(() => loginFlow.takeMessage());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    track(kind === 'registration' ? ANALYTICS_ACTIONS.tfaRegistrationButton : ANALYTICS_ACTIONS.tfaAuthenticationButton);
    const invalid = sixDigitCodeMessage(t, code);
    setError(invalid);
    if (invalid) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    const result = await attempt({ j_auth_app_code: code });
    // No message: the code was taken (signed in, or on to a later step); on the registration page the app is now registered.
    if (!result && kind === 'registration') track(ANALYTICS_ACTIONS.tfaUserRegistered);
    if (result) {
      setMessage(result);
      setCode('');
    }
  }

  return { formRef, code, setCode, error, message, pending, submit };
}
