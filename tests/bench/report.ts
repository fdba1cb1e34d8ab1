/** One figure of `npm run bench` (DESIGN §7): a value and its baseline measured in the same run. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline: number;
  /** value / baseline (or baseline / value for "lower is better" figures, so higher is always better). */
  ratio: number;
  /** Target for `ratio` (or for `value` where the figure has no baseline, see `targetOn`). */
  target: number;
  targetOn?: 'ratio' | 'value';
  /** 'min': pass when the measure ≥ target; 'max': pass when ≤ target. */
  direction?: 'min' | 'max';
  pass: boolean;
  note?: string;
  /** Set by `npm run bench` on a figure that misses: what the scheme still costs and where (still-costs.ts). */
  stillCosts?: string;
}

export function figure(f: Omit<Figure, 'ratio' | 'pass'> & { ratio?: number }): Figure {
  const ratio = f.ratio ?? (f.baseline === 0 ? 0 : f.value / f.baseline);
  const measured = (f.targetOn ?? 'ratio') === 'ratio' ? ratio : f.value;
  const pass = (f.direction ?? 'min') === 'min' ? measured >= f.target : measured <= f.target;
  return { ...f, ratio: Number(ratio.toFixed(4)), pass };
}
