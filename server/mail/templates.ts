import type { Language } from '@shared/contract/constants';
import { DEFAULT_THEME_COLOR } from '@shared/theme/constants';
import { buttonTextColor, isHexColor, parseHexColor, toHex } from '@shared/theme/theme-rules';
import { ACCOUNT_TEMPLATES } from './account-templates';
import { DELIVERY_TEMPLATES } from './delivery-templates';
import { SUBMIT_BOX_TEMPLATES } from './submit-box-templates';
import { FORM_TEMPLATES } from './form-templates';
import { ROOM_REQUEST_TEMPLATES } from './room-request-templates';
import { ROOM_TEMPLATES } from './room-templates';
import { ROOM_NOTICE_TEMPLATES } from './room-notice-templates';
import type { LocalizedTemplate, MailTemplateData, MailTemplateName, TemplateTable } from './template-types';

export type { MailContext, MailTemplateData, MailTemplateName } from './template-types';

/**
 * Mail templates (texts in account-templates.ts and delivery-templates.ts, types in
 * template-types.ts): one typed entry per kind, each with a subject, a plain-text body and
 * an HTML body in de/en/fr. Data values are escaped for the HTML part by `renderMail`,
 * so templates here only ever interpolate through the `v` helper they are given.
 */
export const MAIL_TEMPLATES: TemplateTable = { ...ACCOUNT_TEMPLATES, ...DELIVERY_TEMPLATES, ...SUBMIT_BOX_TEMPLATES, ...FORM_TEMPLATES, ...ROOM_REQUEST_TEMPLATES, ...ROOM_TEMPLATES, ...ROOM_NOTICE_TEMPLATES };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The product's own name: the organisation name while none is set. */
export const DEFAULT_ORGANISATION = 'Kuvert';

/** The content id of the logo attached to a mail (`<img src="cid:…">`). */
export const MAIL_LOGO_CID = 'logo@kuvert';

/** The theme in a mail (Administration › Theme): the header bar and button colour, and whether the logo is attached. */
export interface MailBrand {
  color: string;
  logo: boolean;
}

const DEFAULT_BRAND: MailBrand = { color: DEFAULT_THEME_COLOR, logo: false };

/** A colour safe to put in a style attribute: the theme colour when valid, else the default. */
function brandColor(color: string): string {
  return isHexColor(color) ? toHex(parseHexColor(color)) : DEFAULT_THEME_COLOR;
}

/**
 * Renders one template in one language for an organisation (its name in the texts and the
 * signature). Every interpolated value, the organisation name included, is escaped in the HTML part.
 */
export function renderMail<K extends MailTemplateName>(
  template: K,
  language: Language,
  data: MailTemplateData[K],
  organisation: string = DEFAULT_ORGANISATION,
  brand: MailBrand = DEFAULT_BRAND,
): RenderedMail {
  const localized = MAIL_TEMPLATES[template][language] as LocalizedTemplate<MailTemplateData[K]>;
  const context = { ...data, organisation: organisation.trim() || DEFAULT_ORGANISATION };
  const subject = localized.subject(context);
  const paragraphs = localized.paragraphs(context);
  const action = localized.action?.(context);

  const textParts = [...paragraphs];
  if (action) textParts.splice(1, 0, `${action.label}: ${action.url}`);
  const text = `${textParts.join('\n\n')}\n\n-- \n${context.organisation}\n`;

  const color = brandColor(brand.color);
  const onColor = buttonTextColor(color);
  const htmlParagraphs = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (action) {
    const url = escapeHtml(action.url);
    htmlParagraphs.splice(
      1,
      0,
      `<p><a href="${url}" style="display:inline-block;padding:10px 16px;background:${color};color:${onColor};text-decoration:none;border-radius:4px">${escapeHtml(action.label)}</a></p>`,
      `<p style="font-size:12px;color:#555555">${url}</p>`,
    );
  }
  const html =
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="font-family:Segoe UI,Arial,sans-serif;color:#222222">${mailHeader(escapeHtml(context.organisation), color, onColor, brand.logo)}${htmlParagraphs.join('')}` +
    `<p style="color:#777777">${escapeHtml(context.organisation)}</p></body></html>`;
  return { subject, text, html };
}

/** The bar above the text: the logo (attached, by content id) or the organisation's name, on the theme colour. */
function mailHeader(organisation: string, color: string, onColor: string, logo: boolean): string {
  const content = logo
    ? `<img src="cid:${MAIL_LOGO_CID}" alt="${organisation}" height="40" style="display:block;height:40px;max-width:240px">`
    : `<span style="color:${onColor};font-size:18px;font-weight:600">${organisation}</span>`;
  return `<div data-kuvert-brand style="background:${color};padding:12px 16px;margin-bottom:16px">${content}</div>`;
}
