/**
 * HTTP Range (RFC 9110 §14) for file downloads: one `bytes=` range. A header in another
 * unit is ignored (whole file). Several ranges are answered with the whole file too
 * (a server may ignore Range; multipart/byteranges buys clients nothing here).
 */
export type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!match) return { kind: 'full' };
  const specs = match[1]!.split(',').map((s) => s.trim());
  if (specs.length !== 1) return { kind: 'full' };
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!spec || (spec[1] === '' && spec[2] === '')) return { kind: 'unsatisfiable' };
  if (spec[1] === '') {
    // Suffix: the last N bytes.
    const length = Number(spec[2]);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? size - 1 : Math.min(Number(spec[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
