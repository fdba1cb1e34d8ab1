/**
 * The ONE `Content-Disposition` header for a file name (RFC 6266 with the RFC 8187/5987
 * `filename*` parameter), used by the server's downloads (server/deliveries) and the web client's
 * download service worker (web/lib/download-sw-logic.ts). Pure, no I/O.
 *
 * Decisions (the two earlier copies had drifted apart):
 * - `filename*=UTF-8''…` carries the exact name. Only RFC 8187 `attr-char`s stay as they are;
 *   everything else is percent-encoded as UTF-8 — also `'`, `(`, `)` and `*`, which
 *   `encodeURIComponent` leaves alone although they are not `attr-char`s (the service worker's
 *   copy sent them raw).
 * - `filename="…"` is the fallback for clients without `filename*`: printable ASCII only. Accents
 *   are dropped (`März` → `Marz`), any other non-ASCII character becomes one `_` per character (an
 *   emoji is one `_`, not two), and `"`, `\` and `%` become `_` (RFC 6266 appendix D: backslash
 *   escapes and percent signs are read differently by different browsers).
 * - Control characters (C0, DEL, C1 — CR/LF among them) never reach the header: they become `_`
 *   in both parameters, so a name can neither split the header nor smuggle a line break into
 *   the saved file's name. Lone surrogates become U+FFFD (`encodeURIComponent` would throw).
 * - Nothing is shortened: names are at most MAX_FILE_NAME_LENGTH (255) characters by the
 *   contract, which keeps the header under 3.1 KB even for a name of emoji.
 * - A name that leaves nothing printable falls back to `download` in the ASCII parameter.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g; // eslint-disable-line no-control-regex
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const COMBINING_MARK = /[\u0300-\u036f]/g;
/** Characters `encodeURIComponent` keeps that RFC 8187 `attr-char` does not allow. */
const NOT_ATTR_CHAR = /['()*]/g;

/** The name as it may appear at all: no control characters, no lone surrogates. */
function cleanName(name: string): string {
  return name.replace(LONE_SURROGATE, '\ufffd').replace(CONTROL, '_');
}

/** The `filename` fallback: printable ASCII without `"`, `\` and `%`. */
export function asciiFileName(name: string): string {
  const ascii = [...cleanName(name).normalize('NFD').replace(COMBINING_MARK, '').normalize('NFC')]
    .map((char) => (/^[\x20-\x7e]$/.test(char) && !/["\\%]/.test(char) ? char : '_'))
    .join('');
  return ascii.trim() === '' ? 'download' : ascii;
}

/** The RFC 8187 `ext-value` of the exact name: `UTF-8''` and the percent-encoded UTF-8 bytes. */
export function extendedFileName(name: string): string {
  return `UTF-8''${encodeURIComponent(cleanName(name)).replace(NOT_ATTR_CHAR, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** `attachment; filename="…"; filename*=UTF-8''…` (or `inline`) for a file called `name`. */
export function contentDisposition(name: string, type: 'attachment' | 'inline' = 'attachment'): string {
  return `${type}; filename="${asciiFileName(name)}"; filename*=${extendedFileName(name)}`;
}
