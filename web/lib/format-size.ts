/** Size units per language: French writes octets (o, Ko, Mo, Go, To), German and English bytes. */
const SIZE_UNITS: Record<string, readonly string[]> = {
  fr: ['o', 'Ko', 'Mo', 'Go', 'To'],
};
const DEFAULT_SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Human-readable size (B, KB, MB, GB; Ko, Mo… in French; 1024-based, one decimal, the language's number format). */
export function formatSize(bytes: number, locale: string): string {
  const units = SIZE_UNITS[locale.slice(0, 2).toLowerCase()] ?? DEFAULT_SIZE_UNITS;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // A no-break space keeps the figure and its unit on one line.
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)}\u00a0${units[unit]}`;
}
