import type { StorageQuota } from '@shared/contract/room-ops';
import { describe, expect, it } from 'vitest';
import { quotaWarning } from './storage-warning';

const base: StorageQuota = { used: 0, total: null, other: 0, secureRooms: 0, free: null };

describe('the storage warning (issue 32 §3: from 90 % of a quota)', () => {
  it('warns from 90 %, says full at 100 %, never without a quota', () => {
    expect(quotaWarning({ ...base, user: { used: 899, total: 1000 } }, ['user'])).toBeNull();
    expect(quotaWarning({ ...base, user: { used: 900, total: 1000 } }, ['user'])).toEqual({ scope: 'user', used: 900, total: 1000, full: false });
    expect(quotaWarning({ ...base, user: { used: 1000, total: 1000 } }, ['user'])?.full).toBe(true);
    expect(quotaWarning({ ...base, user: { used: 10 ** 9, total: null } }, ['user'])).toBeNull();
    expect(quotaWarning(undefined, ['user'])).toBeNull();
  });

  it("the room's quota first on a room's page, then the user's", () => {
    const quota = { ...base, user: { used: 95, total: 100 }, room: { used: 99, total: 100 } };
    expect(quotaWarning(quota, ['room', 'user'])?.scope).toBe('room');
    expect(quotaWarning({ ...quota, room: { used: 1, total: 100 } }, ['room', 'user'])?.scope).toBe('user');
  });
});
