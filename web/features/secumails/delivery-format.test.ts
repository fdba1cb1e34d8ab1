import { describe, expect, it } from 'vitest';
import { formatSize, isExpired, pageRange, replyLink, replySubject, reviewStateKey, timeStateKey, tokenFromHash } from './delivery-format';

describe('pageRange', () => {
  it('gives start to end of count and page of pageCount', () => {
    expect(pageRange(1, 25, 25, 60)).toEqual({ start: 1, end: 25, count: 60, page: 1, pageCount: 3, capped: false });
    expect(pageRange(3, 25, 10, 60)).toEqual({ start: 51, end: 60, count: 60, page: 3, pageCount: 3, capped: false });
  });
  it('is 0 to 0 of 0, page 1 of 1 when empty', () => {
    expect(pageRange(1, 25, 0, 0)).toEqual({ start: 0, end: 0, count: 0, page: 1, pageCount: 1, capped: false });
  });
  it('follows the rows actually shown when the list changed under the walk', () => {
    // Rows were removed since page 1 counted 15: page 2 is still page 2 (of at least 2).
    expect(pageRange(2, 10, 3, 12)).toEqual({ start: 11, end: 13, count: 12, page: 2, pageCount: 2, capped: false });
    expect(pageRange(3, 10, 4, 15)).toEqual({ start: 21, end: 24, count: 15, page: 3, pageCount: 3, capped: false });
  });
  it('passes a capped total on', () => {
    expect(pageRange(41, 25, 25, 1000, true)).toEqual({ start: 1001, end: 1025, count: 1000, page: 41, pageCount: 41, capped: true });
  });
});

describe('time state', () => {
  it('maps to its text key and only expired counts as expired', () => {
    expect(timeStateKey('expiringSoon')).toBe('deliveries:timeState.expiringSoon');
    expect(isExpired('expired')).toBe(true);
    expect(isExpired('permanent')).toBe(false);
    expect(isExpired('expiringSoon')).toBe(false);
  });
});

describe('reply', () => {
  it('prefixes Re: once', () => {
    expect(replySubject('Figures')).toBe('Re: Figures');
    expect(replySubject('RE: Figures')).toBe('RE: Figures');
  });
  it('builds the prefilled send link', () => {
    expect(replyLink('/secumails/send', 'a@b.test', 'Q&A')).toBe('/secumails/send?to=a%40b.test&subject=Re%3A+Q%26A');
  });
});

describe('tokenFromHash', () => {
  it('reads #token=', () => {
    expect(tokenFromHash('#token=abc_-1')).toBe('abc_-1');
    expect(tokenFromHash('')).toBeNull();
  });
});

describe('formatSize', () => {
  it('uses binary units', () => {
    expect(formatSize(512, 'en')).toBe('512\u00a0B');
    expect(formatSize(1536, 'en')).toBe('1.5\u00a0KB');
  });

  it('writes the units and numbers of the language: Mo and a decimal comma in French', () => {
    expect(formatSize(3.5 * 1024 ** 2, 'fr')).toBe('3,5\u00a0Mo');
    expect(formatSize(512, 'fr-FR')).toBe('512\u00a0o');
    expect(formatSize(2 * 1024 ** 3, 'fr')).toBe('2\u00a0Go');
    expect(formatSize(3.5 * 1024 ** 2, 'de')).toBe('3,5\u00a0MB');
    expect(formatSize(3.5 * 1024 ** 2, 'en')).toBe('3.5\u00a0MB');
  });
});

describe('reviewStateKey', () => {
  it('labels only the states that hold the attachments back', () => {
    expect(reviewStateKey('notReviewed')).toBeNull();
    expect(reviewStateKey('clean')).toBeNull();
    expect(reviewStateKey('inProgress')).toBe('deliveries:reviewState.inProgress');
    expect(reviewStateKey('blockedReviewerFailed')).toBe('deliveries:reviewState.blockedReviewerFailed');
  });
});
