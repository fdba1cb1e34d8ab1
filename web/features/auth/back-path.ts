/** The `back` value of the -dar signup variants: only a same-origin path (`/x`, never `//host` or `/\host`). */
export function safeBackPath(back: string | null): string | null {
  if (!back || !back.startsWith('/') || back.startsWith('//') || back.startsWith('/\\')) return null;
  return back;
}
