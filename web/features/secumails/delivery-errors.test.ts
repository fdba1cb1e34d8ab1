import { ApiError } from '@shared/api/api-error';
import { describe, expect, it } from 'vitest';
import { deliveryLoadMessageKey, needsSignIn } from './delivery-errors';

const apiError = (status: number) => new ApiError({ status, message: `HTTP ${status}`, headers: new Headers() });

describe('deliveryLoadMessageKey (SPEC §8 delivery page messages)', () => {
  it('maps 404 to not found, 401/403 to no access permission, everything else to unable to load', () => {
    expect(deliveryLoadMessageKey(apiError(404))).toBe('deliveries:messages.notFound');
    expect(deliveryLoadMessageKey(apiError(403))).toBe('deliveries:messages.noPermission');
    expect(deliveryLoadMessageKey(apiError(401))).toBe('deliveries:messages.noPermission');
    expect(deliveryLoadMessageKey(apiError(500))).toBe('deliveries:messages.unableToLoad');
    expect(deliveryLoadMessageKey(new TypeError('Failed to fetch'))).toBe('deliveries:messages.unableToLoad');
  });
  it('asks for a sign-in only on 401', () => {
    expect(needsSignIn(apiError(401))).toBe(true);
    expect(needsSignIn(apiError(403))).toBe(false);
  });
});
