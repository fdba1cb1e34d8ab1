import { focusFirstInvalid, sixDigitCodeMessage } from '@web/lib/validation';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { loginFlow, type AuthMessage } from './login-flow';
import { useLoginAttempt } from './use-login-attempt';

/**
 * The code step of a two-factor sign-in, the same on the authentication and the registration
 * page: the code field, its check (focus on the field when it is wrong), POST /auth with
 * `j_auth_app_code`, and the message of a refused code (the field is emptied).
 */
export function useAuthAppCodeStep() {
  const { t } = useTranslation();
  const { attempt, pending } = useLoginAttempt();
  const formRef = useRef<HTMLFormElement>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<AuthMessage | null>(() => loginFlow.takeMessage());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = sixDigitCodeMessage(t, code);
    setError(invalid);
    if (invalid) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    const result = await attempt({ j_auth_app_code: code });
    if (result) {
      setMessage(result);
      setCode('');
    }
  }

  return { formRef, code, setCode, error, message, pending, submit };
}
