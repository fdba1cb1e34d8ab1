import { describe, expect, it } from 'vitest';
import { figure } from './report';
import { withStillCosts } from './still-costs';

const missing = (name: string) => figure({ name, value: 1, unit: 'MiB/s', baseline: 2, target: 0.9 });

describe('withStillCosts (issue 35 §5: a miss says what the scheme still costs)', () => {
  it('leaves a figure on target alone', () => {
    const met = figure({ name: 'rooms.e2e.upload', value: 2, unit: 'MiB/s', baseline: 2, target: 0.9 });
    expect(withStillCosts(met)).toEqual(met);
    expect(withStillCosts(met).stillCosts).toBeUndefined();
  });

  it('names the measured costs of a known miss, also for names that carry a size', () => {
    expect(withStillCosts(missing('rooms.e2e.upload.browser_cpu')).stillCosts).toMatch(/commitment.*AES-GCM.*Blob/s);
    expect(withStillCosts(missing('download.e2e_vs_page_fetch')).stillCosts).toMatch(/service worker/);
    expect(withStillCosts(missing('E2E room ZIP browser memory growth (300 MiB)')).stillCosts).toMatch(/1 KiB records/);
  });

  it('says so when no measurement explains a miss', () => {
    expect(withStillCosts(missing('a.figure.nobody.explained')).stillCosts).toMatch(/^No step-by-step measurement/);
  });
});
