import { FORM_FOOTER_LINKS, type FormFooter } from '@shared/contract/form-footer';
import type { FormProblem } from './form-rules';
import { isValidHttpUrl } from './form-rules';

/** §5 "footer links valid": each link that is set is an http or https URL (checked enabled or not, so a saved link is always safe to show). */
export function formFooterProblems(footer: FormFooter): FormProblem[] {
  return FORM_FOOTER_LINKS.filter((key) => footer[key].trim() !== '' && !isValidHttpUrl(footer[key].trim())).map((key) => ({ field: `layout.footer.${key}`, reason: 'invalidFooterLink' }));
}

/** The links the public page shows: none unless enabled, only those that are set and valid. */
export function footerLinks(footer: FormFooter | undefined): { key: (typeof FORM_FOOTER_LINKS)[number]; href: string }[] {
  if (!footer?.enabled) return [];
  return FORM_FOOTER_LINKS.map((key) => ({ key, href: footer[key].trim() })).filter((link) => link.href !== '' && isValidHttpUrl(link.href));
}
