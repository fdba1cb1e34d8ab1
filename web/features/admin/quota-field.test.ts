import { QUOTA_MAX_BYTES } from '@shared/contract/storage-quotas';
import { describe, expect, it } from 'vitest';
import { parseQuotaMib, quotaText } from './quota-field';

describe('the quota field (MiB typed, bytes sent)', () => {
  it('empty is no quota; MiB become bytes; a comma is a decimal point', () => {
    expect(parseQuotaMib('  ')).toBeNull();
    expect(parseQuotaMib('5')).toBe(5 * 1024 ** 2);
    expect(parseQuotaMib('0,5')).toBe(512 * 1024);
    expect(parseQuotaMib('0')).toBe(0);
    expect(quotaText(5 * 1024 ** 2)).toBe('5');
    expect(quotaText(null)).toBe('');
  });

  it('refuses negative, non-numeric and larger-than-allowed figures', () => {
    expect(parseQuotaMib('-1')).toBe('invalid');
    expect(parseQuotaMib('lots')).toBe('invalid');
    expect(parseQuotaMib('Infinity')).toBe('invalid');
    expect(parseQuotaMib(String(QUOTA_MAX_BYTES / 1024 ** 2 + 1))).toBe('invalid');
    expect(parseQuotaMib(String(QUOTA_MAX_BYTES / 1024 ** 2))).toBe(QUOTA_MAX_BYTES);
  });
});
