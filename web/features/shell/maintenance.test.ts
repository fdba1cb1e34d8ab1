import { describe, expect, it } from 'vitest';
import { activeMaintenanceNotice } from './maintenance';

const base = {
  'ftapi.maintenanceInfo.activated': true,
  'ftapi.maintenanceInfo.title.en': 'Maintenance',
  'ftapi.maintenanceInfo.title.de': 'Wartung',
  'ftapi.maintenanceInfo.content.en': 'Down on Sunday',
  'ftapi.maintenanceInfo.backgroundColor': '#112233',
  'ftapi.maintenanceInfo.textColor': '#FFFFFF',
  'ftapi.maintenanceInfo.buttonColor': 'zzz',
  'ftapi.maintenanceInfo.startDate': null,
  'ftapi.maintenanceInfo.expirationDate': null,
};
const now = Date.parse('2026-06-15T12:00:00Z');

describe('maintenance banner rule (SPEC §4)', () => {
  it('shows only when activated', () => {
    expect(activeMaintenanceNotice({ ...base, 'ftapi.maintenanceInfo.activated': false }, 'en', now)).toBeNull();
    expect(activeMaintenanceNotice(base, 'en', now)).toMatchObject({ title: 'Maintenance', content: 'Down on Sunday' });
  });
  it('null dates mean always', () => {
    expect(activeMaintenanceNotice(base, 'en', 0)).not.toBeNull();
  });
  it('shows only between start and expiration', () => {
    const dated = { ...base, 'ftapi.maintenanceInfo.startDate': '2026-06-15T00:00:00Z', 'ftapi.maintenanceInfo.expirationDate': '2026-06-16T00:00:00Z' };
    expect(activeMaintenanceNotice(dated, 'en', now)).not.toBeNull();
    expect(activeMaintenanceNotice(dated, 'en', Date.parse('2026-06-14T23:59:59Z'))).toBeNull();
    expect(activeMaintenanceNotice(dated, 'en', Date.parse('2026-06-16T00:00:01Z'))).toBeNull();
    expect(activeMaintenanceNotice({ ...base, 'ftapi.maintenanceInfo.expirationDate': '2026-06-01T00:00:00Z' }, 'en', now)).toBeNull();
  });
  it('uses the language texts with English fallback and its colours (invalid ones → default)', () => {
    const notice = activeMaintenanceNotice(base, 'de', now);
    expect(notice).toMatchObject({ title: 'Wartung', content: 'Down on Sunday', backgroundColor: '#112233', textColor: '#FFFFFF', buttonColor: '#323130' });
  });
});
