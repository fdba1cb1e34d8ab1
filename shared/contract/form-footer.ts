import { z } from 'zod';

/**
 * The footer of a web form (SPEC §3 Form "footer (enabled, imprint, privacy and support links)",
 * §5 "footer links valid", §8 "invalid footer links"). Saved in the form's `layout.footer`
 * (edited in the Layout tab); the public page and its success page show the links at the bottom
 * when `enabled`, each opening in a new tab. Every link is optional; one that is set must be an
 * http or https URL (shared/rules/form-footer-rules.ts, reason `invalidFooterLink`).
 */

export const FORM_FOOTER_URL_MAX = 2000;
export const FORM_FOOTER_LINKS = ['imprintUrl', 'privacyUrl', 'supportUrl'] as const;
export type FormFooterLink = (typeof FORM_FOOTER_LINKS)[number];

const url = z.string().max(FORM_FOOTER_URL_MAX).default('');
export const FormFooterInputSchema = z.object({ enabled: z.boolean().default(false), imprintUrl: url, privacyUrl: url, supportUrl: url }).strict().meta({ id: 'SaveFormFooter' });
export const FormFooterSchema = z.object({ enabled: z.boolean(), imprintUrl: z.string(), privacyUrl: z.string(), supportUrl: z.string() }).meta({ id: 'FormFooter' });
export type FormFooter = z.infer<typeof FormFooterSchema>;
export const DEFAULT_FORM_FOOTER: FormFooter = { enabled: false, imprintUrl: '', privacyUrl: '', supportUrl: '' };

/** Spread into the layout's shape (shared/contract/forms.ts LAYOUT_SHAPE). */
export const FORM_FOOTER_SHAPE = { footer: FormFooterInputSchema.default(DEFAULT_FORM_FOOTER) };
/** Spread into the answered layout. */
export const FORM_FOOTER_ANSWER_SHAPE = { footer: FormFooterSchema };
