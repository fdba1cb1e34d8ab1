import { ApiError } from '@shared/api/api-error';
import en from '@locales/en/roomLinks.json';
import { describe, expect, it } from 'vitest';
import { isPasswordRefusal, linkErrorKey } from './link-errors';

const refusal = (status: number, error: string, metadata: Record<string, unknown> = {}) =>
  new ApiError({ status, message: error, error: { uuid: 'u', requestUri: '/api/2/room-links/x', error, message: error, metadata }, headers: new Headers() });

describe('linkErrorKey: the landing page message of a refused link', () => {
  it('names each refusal of the server with its own text', () => {
    const cases: [ApiError, string][] = [
      [refusal(404, 'NotFoundException', { reason: 'linkInvalid' }), 'linkInvalid'],
      [refusal(400, 'ValidationException'), 'linkInvalid'],
      [refusal(410, 'NotFoundException', { reason: 'linkExpired' }), 'linkExpired'],
      [refusal(410, 'NotFoundException', { reason: 'linkRevoked' }), 'linkRevoked'],
      [refusal(410, 'NotFoundException', { reason: 'linkUsedUp' }), 'linkUsedUp'],
      [refusal(403, 'AccessDeniedException', { reason: 'passwordRequired' }), 'passwordRequired'],
      [refusal(403, 'AccessDeniedException', { reason: 'passwordWrong' }), 'passwordWrong'],
      [refusal(410, 'NotFoundException', { reason: 'fileDeleted' }), 'fileDeleted'],
      [refusal(410, 'NotFoundException', { reason: 'creatorLostAccess' }), 'creatorLostAccess'],
      [refusal(403, 'FileNotAllowedException', { reason: 'scanInProgress' }), 'scanInProgress'],
      [refusal(403, 'FileNotAllowedException', { reason: 'virusDetected' }), 'virusDetected'],
      [refusal(403, 'FileNotAllowedException', { reason: 'scanFailed' }), 'scanFailed'],
      [refusal(429, 'RateLimitExceededException'), 'rateLimited'],
      [refusal(500, 'InternalServerError'), 'general'],
    ];
    for (const [error, key] of cases) {
      expect(linkErrorKey(error)).toBe(key);
      expect(en.page.errors[key as keyof typeof en.page.errors]).toBeTruthy();
    }
  });

  it('only a password refusal makes the page ask for the password', () => {
    expect(isPasswordRefusal(refusal(403, 'AccessDeniedException', { reason: 'passwordRequired' }))).toBe(true);
    expect(isPasswordRefusal(refusal(403, 'AccessDeniedException', { reason: 'passwordWrong' }))).toBe(true);
    expect(isPasswordRefusal(refusal(410, 'NotFoundException', { reason: 'linkUsedUp' }))).toBe(false);
    expect(isPasswordRefusal(refusal(403, 'FileNotAllowedException', { reason: 'virusDetected' }))).toBe(false);
  });

  it('a network failure (no answer) is the general text', () => {
    expect(linkErrorKey(new TypeError('Failed to fetch'))).toBe('general');
  });
});
