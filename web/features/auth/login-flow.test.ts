import { ApiError } from '@shared/api/api-error';
import { LoginAuthorizationError } from '@shared/auth/authorization-errors';
import { describe, expect, it } from 'vitest';
import { loginFlow, resolveLoginOutcome } from './login-flow';

const refused = (...codes: number[]) => new LoginAuthorizationError(codes.map((authorizationError) => ({ authorizationError })), null);
const fresh = { sentCaptcha: false, sentAuthCode: false };

describe('screen reaction to authorization codes', () => {
  it.each([
    [1, '/auth/login', 'invalidCredentials'],
    [2, '/auth/captcha', null],
    [3, '/auth/totp-registration', null],
    [4, '/auth/totp-authentication', null],
    [6, '/auth/account-verification', null],
    [7, '/auth/account-verification', 'invalidVerificationCode'],
    [8, '/auth/login', 'userDisabled'],
    [9, '/auth/login-disclaimer', null],
    [40, '/auth/login', 'generalError'],
  ])('code %i → %s (%s)', (code, step, message) => {
    expect(resolveLoginOutcome(refused(code), fresh)).toMatchObject({ step, message });
  });

  it('shows wrong captcha / invalid code only after the user answered', () => {
    expect(resolveLoginOutcome(refused(2), { sentCaptcha: true, sentAuthCode: false }).message).toBe('wrongCaptcha');
    expect(resolveLoginOutcome(refused(4), { sentCaptcha: false, sentAuthCode: true }).message).toBe('invalidAuthCode');
    const required = new LoginAuthorizationError([{ authorizationError: 4, message: 'required' }], null);
    expect(resolveLoginOutcome(required, { sentCaptcha: false, sentAuthCode: true }).message).toBeNull();
  });

  it('captcha wins over wrong credentials', () => {
    expect(resolveLoginOutcome(refused(1, 2), fresh).step).toBe('/auth/captcha');
  });

  it('maps raw errors', () => {
    const forbidden = new ApiError({ status: 403, message: 'no', headers: new Headers() });
    expect(resolveLoginOutcome(forbidden, fresh).message).toBe('insufficientRights');
    const throttled = new ApiError({ status: 429, message: 'Too many failed sign-ins', headers: new Headers({ 'retry-after': '60' }) });
    expect(resolveLoginOutcome(throttled, fresh)).toEqual({ step: '/auth/login', message: 'signInRateLimit', entry: null });
    expect(resolveLoginOutcome(new TypeError('Failed to fetch'), fresh).message).toBe('generalError');
  });
});

describe('login flow memory', () => {
  it('complete() forgets the credentials and keeps the target; reset() forgets both', () => {
    loginFlow.update({ credentials: { username: 'a', password: 'b' }, continueTo: '/settings?x=1' });
    loginFlow.complete('/settings?x=1');
    expect(loginFlow.get()).toMatchObject({ credentials: null, continueTo: null, completedTo: '/settings?x=1' });
    loginFlow.reset();
    expect(loginFlow.get().completedTo).toBeNull();
  });
});
