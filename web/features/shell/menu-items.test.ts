import { describe, expect, it } from 'vitest';
import { currentItemId, DELIVERY_MENU, MAIN_MENU, visibleItems } from './menu-items';

describe('main menu: one current entry per area (DESIGN §9)', () => {
  const all = visibleItems(MAIN_MENU, ['ROLE_ADMIN']);

  it('marks Secure mails on every page of the delivery area, Deliveries (which opens Send) never', () => {
    for (const path of ['/secumails/inbox', '/secumails/inbox/4b7c', '/secumails/send', '/secumails/outbox/1', '/secumails/submit-box', '/secumails/en/release']) {
      expect(currentItemId(all, path), path).toBe('secure-mails');
    }
    expect(MAIN_MENU.find((item) => item.id === 'deliveries')?.to).toBe('/secumails/send');
  });

  it('marks Datarooms on every data-room page; Secure rooms (E2E, not built yet) has its own page', () => {
    for (const path of ['/datarooms', '/datarooms/4b7c', '/datarooms/4b7c/folders/9a1e']) expect(currentItemId(all, path), path).toBe('datarooms');
    expect(MAIN_MENU.find((item) => item.id === 'secure-rooms')?.to).toBe('/secure-rooms');
    expect(currentItemId(all, '/secure-rooms')).toBe('secure-rooms');
  });

  it('marks the other areas by their own path, and nothing elsewhere', () => {
    expect(currentItemId(all, '/admin/system')).toBe('administration');
    expect(currentItemId(all, '/forms')).toBe('forms');
    expect(currentItemId(all, '/help')).toBe('help');
    expect(currentItemId(all, '/settings')).toBeUndefined();
    // A prefix is a whole segment: /formsx is not /forms.
    expect(currentItemId(all, '/formsx')).toBeUndefined();
    expect(DELIVERY_MENU.map((item) => item.id)).toEqual(['send', 'submit-box', 'inbox', 'sent']);
  });
});
