import { ROLE_NAMES } from '@shared/contract/constants';
import { describe, expect, it } from 'vitest';
import { mayManage, ROLE_GROUPS, roleKey } from './role-groups';

describe('role groups', () => {
  it('hold every role name of SPEC §6 exactly once', () => {
    const grouped = ROLE_GROUPS.flatMap((g) => g.roles);
    expect([...grouped].sort()).toEqual([...ROLE_NAMES].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('keys have no dots (i18next would read them as nesting)', () => {
    expect(roleKey('config.group.reporting')).toBe('config_group_reporting');
  });

  it('only administrators manage administrators', () => {
    expect(mayManage(['ROLE_USER_ADMIN'], ['ROLE_UI_USER'])).toBe(true);
    expect(mayManage(['ROLE_USER_ADMIN'], ['ROLE_ADMIN'])).toBe(false);
    expect(mayManage(['ROLE_USER_ADMIN'], ['ROLE_ROOT'])).toBe(false);
    expect(mayManage(['ROLE_ADMIN'], ['ROLE_ADMIN'])).toBe(true);
  });
});
