import { FORM_EMBED_MESSAGE, FORM_URL_PARAMS } from '@shared/contract/form-embed';
import { DISPLAY_ONLY_FIELD_TYPES, type CustomField, type FieldValue } from '@shared/contract/forms';
import { useEffect } from 'react';

/**
 * What the public form page reads from its query (web/README.md "Public form URL"): `plain=1`
 * (no header and banner, for frames), `embed=1` (post the page height to the parent frame) and
 * `f.<field name>=<value>` default values — several for a checkbox field. The share dialog's URL
 * helper writes the same parameters (`publicFormUrl`).
 */
export interface PublicFormUrlOptions {
  plain: boolean;
  embed: boolean;
  /** Values by field name as given (checkbox: every value). */
  defaults: Record<string, string[]>;
}

export function readPublicFormUrl(search: string): PublicFormUrlOptions {
  const params = new URLSearchParams(search);
  const defaults: Record<string, string[]> = {};
  for (const [key, value] of params) {
    if (!key.startsWith(FORM_URL_PARAMS.fieldPrefix)) continue;
    const name = key.slice(FORM_URL_PARAMS.fieldPrefix.length);
    (defaults[name] ??= []).push(value);
  }
  return { plain: params.get(FORM_URL_PARAMS.plain) === '1', embed: params.get(FORM_URL_PARAMS.embed) === '1', defaults };
}

/** The share URL with the helper's choices: `plain` and the default values of fields that have one. */
export function publicFormUrl(link: string, options: { plain: boolean; defaults: Record<string, string> }): string {
  const url = new URL(link);
  if (options.plain) url.searchParams.set(FORM_URL_PARAMS.plain, '1');
  for (const [name, value] of Object.entries(options.defaults)) {
    if (value.trim() !== '') url.searchParams.append(`${FORM_URL_PARAMS.fieldPrefix}${name}`, value);
  }
  return url.href;
}

/** Fields whose value may be given in the URL (not files, signatures or display-only ones). */
export const prefillable = (field: CustomField) => !DISPLAY_ONLY_FIELD_TYPES.includes(field.type) && field.type !== 'file' && field.type !== 'signature';

/** The URL's defaults as field values, for fields that take them; a choice must be one of the options. */
export function urlDefaults(fields: readonly CustomField[], defaults: Record<string, string[]>): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of fields) {
    const given = defaults[field.name];
    if (!given || given.length === 0 || !prefillable(field)) continue;
    if (field.type === 'checkbox') values[field.name] = given.filter((v) => field.options.includes(v));
    else if ((field.type === 'radio' || field.type === 'dropdown') && !field.options.includes(given[0]!)) continue;
    else values[field.name] = given[0]!;
  }
  return values;
}

/** In a frame (`embed=1`): tells the parent the page's height whenever it changes (the embed script resizes the frame). */
export function useEmbedHeight(enabled: boolean): void {
  useEffect(() => {
    if (!enabled || window.parent === window) return undefined;
    let last = 0;
    // The page's content ends with <main>: the shell itself stretches to the frame's viewport, so it would never shrink.
    const content = document.getElementById('main-content') ?? document.body;
    const post = () => {
      const height = Math.ceil(content.getBoundingClientRect().bottom + window.scrollY);
      if (height === last) return;
      last = height;
      // The height is no secret, and the embedding site is not known here: any parent may read it.
      window.parent.postMessage({ type: FORM_EMBED_MESSAGE, height }, '*');
    };
    const observer = new ResizeObserver(post);
    observer.observe(content);
    post();
    return () => observer.disconnect();
  }, [enabled]);
}
