import { describe, expect, it } from 'vitest';
import { approvalTitleKeyOf, secuPassContextOf } from './secupass-context';

describe('secuPassContextOf', () => {
  it('a data room page, or the secure-rooms list, is a room context', () => {
    const room = '/secure-rooms/0b9c6f4e-1d2a-4f1b-9a51-2c8f1f7a0d11/folders/5e0f0c55-7b36-4b7e-a0c8-0c4a9d2d6b0e';
    expect(secuPassContextOf(room)).toEqual({ kind: 'room', target: room, roomPage: true });
    expect(secuPassContextOf('/secure-rooms')).toEqual({ kind: 'room', target: '/secure-rooms', roomPage: false });
    expect(secuPassContextOf('/datarooms/abc')).toMatchObject({ kind: 'room', roomPage: true });
  });
  it('a delivery page is a delivery context', () => {
    expect(secuPassContextOf('/secumails/en/download?deliveryUuid=1')).toEqual({ kind: 'delivery', target: '/secumails/en/download?deliveryUuid=1' });
    expect(secuPassContextOf('/secumails/inbox/1')).toMatchObject({ kind: 'delivery' });
  });
  it('nothing, elsewhere, or an unsafe target is neutral', () => {
    expect(secuPassContextOf(null)).toEqual({ kind: 'none', target: null });
    expect(secuPassContextOf('/settings')).toEqual({ kind: 'none', target: '/settings' });
    expect(secuPassContextOf('//evil.example/secure-rooms/x')).toEqual({ kind: 'none', target: null });
    // A look-alike prefix is not the rooms area.
    expect(secuPassContextOf('/secure-roomsX/1')).toEqual({ kind: 'none', target: '/secure-roomsX/1' });
  });
  it('the approval page is titled for its context (the tab says what the heading says)', () => {
    expect(approvalTitleKeyOf(new URLSearchParams({ continue: '/secure-rooms/abc' }))).toBe('secupass:room.approvalTitle');
    // The list (an owner before a first Secure room): nothing to wait for.
    expect(approvalTitleKeyOf(new URLSearchParams({ continue: '/secure-rooms' }))).toBe('secupass:create.successTitle');
    expect(approvalTitleKeyOf(new URLSearchParams({ continue: '/secumails/inbox/1' }))).toBe('secupass:approval.title');
    expect(approvalTitleKeyOf(new URLSearchParams())).toBe('secupass:create.successTitle');
  });
});
