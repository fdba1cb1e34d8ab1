import { ArrowUploadRegular, CalendarRegular, CheckmarkCircleRegular, DocumentRegular, InfoRegular, MailRegular, PersonRegular, SignatureRegular } from '@fluentui/react-icons';
import type { FormPageIcon } from '@shared/contract/form-pages';
import type { ComponentType } from 'react';

/** The Fluent UI icon of each process page icon name (shared/contract/form-pages.ts FORM_PAGE_ICONS). */
export const PAGE_ICONS: Record<FormPageIcon, ComponentType<{ 'aria-hidden'?: boolean; 'data-page-icon'?: string }>> = {
  document: DocumentRegular,
  person: PersonRegular,
  upload: ArrowUploadRegular,
  signature: SignatureRegular,
  calendar: CalendarRegular,
  mail: MailRegular,
  info: InfoRegular,
  check: CheckmarkCircleRegular,
};

/** The icon, decorative: its name is read out as text next to it where there is no title. */
export function PageIcon({ icon }: { icon: FormPageIcon | null }) {
  if (!icon) return null;
  const Icon = PAGE_ICONS[icon];
  return <Icon aria-hidden data-page-icon={icon} />;
}
