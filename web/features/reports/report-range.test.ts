import { describe, expect, it } from 'vitest';
import { defaultReportRange, rangeProblem } from './report-range';

describe('report range', () => {
  it('defaults to the last 30 UTC days, today included', () => {
    expect(defaultReportRange(Date.parse('2026-03-01T23:30:00Z'))).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });

  it('names what is wrong, as the server would refuse it', () => {
    expect(rangeProblem({ from: '2026-01-01', to: '2026-01-01' })).toBeUndefined();
    expect(rangeProblem({ from: '2024-01-01', to: '2024-12-31' })).toBeUndefined(); // 366 days
    expect(rangeProblem({ from: '2024-01-01', to: '2025-01-01' })).toBe('tooLong');
    expect(rangeProblem({ from: '2026-01-02', to: '2026-01-01' })).toBe('fromAfterTo');
    expect(rangeProblem({ from: '2026-02-30', to: '2026-03-01' })).toBe('invalidDay');
    expect(rangeProblem({ from: '', to: '2026-03-01' })).toBe('invalidDay');
  });
});
