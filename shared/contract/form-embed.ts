/**
 * Embedding public forms in other sites (issue 16 §2, SPEC §6 "embed settings"). Two admin
 * settings (PUT /admin/settings, ROLE_ADMIN), each a list of origins separated by commas, spaces
 * or new lines; empty (the default) means "not embeddable":
 *
 * - `frameAncestors`: who may show `/form/*` in a frame — the page's `Content-Security-Policy:
 *   frame-ancestors` lists exactly these (otherwise `'none'`). An entry may name every subdomain
 *   (`https://*.example.org`).
 * - `corsOrigins`: which other sites' scripts may call the public form endpoints
 *   (`/api/2/public-forms/*`) from the browser: `Access-Control-Allow-Origin` for exactly these.
 *
 * The script embed (`FORM_EMBED_SCRIPT_PATH`) creates the frame and resizes it to the height the
 * form page posts (`FORM_EMBED_MESSAGE`).
 */
export const FORM_EMBED_SETTING_KEYS = {
  frameAncestors: 'kuvert.forms.embed.frameAncestors',
  corsOrigins: 'kuvert.forms.embed.corsOrigins',
} as const;

/** The small script a site includes to embed a form (`<script src=… data-form=…>`). */
export const FORM_EMBED_SCRIPT_PATH = '/form-embed.js';
/** `postMessage` type the framed form page sends to its parent with its height in pixels. */
export const FORM_EMBED_MESSAGE = 'kuvert-form-height';

/** Query parameters of the public form page (the share dialog's URL helper writes them). */
export const FORM_URL_PARAMS = {
  /** `plain=1`: the page without the surrounding layout (header, background) — for frames. */
  plain: 'plain',
  /** `embed=1`: the page posts its height to the parent frame (set by the embed snippets). */
  embed: 'embed',
  /** A default value for a custom field: `f.<field name>=<value>`. */
  fieldPrefix: 'f.',
} as const;

const ORIGIN = /^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** The entries of an origin list setting (lower-cased, without a trailing slash). */
export function parseOriginList(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return [...new Set(value.split(/[\s,]+/).map((e) => e.trim().toLowerCase().replace(/\/$/, '')).filter((e) => e !== ''))];
}

/** Why an origin list does not fit (the entries that are no `http(s)://host[:port]`), or null. */
export function originListProblem(value: unknown, wildcards: boolean): string | null {
  if (typeof value !== 'string') return 'must be a string';
  const bad = parseOriginList(value).filter((e) => !ORIGIN.test(e) || (!wildcards && e.includes('*')));
  if (bad.length === 0) return null;
  return `must be origins like https://www.example.org${wildcards ? ' or https://*.example.org' : ''}, separated by commas (not: ${bad.join(', ')})`;
}

/** True when `origin` (a browser's Origin header) is one of the list's entries. */
export function originAllowed(list: readonly string[], origin: string): boolean {
  const wanted = origin.toLowerCase();
  return list.includes(wanted);
}
