import { FieldConditionSchema } from '@shared/contract/form-conditions';
import { FORM_PAGE_ICONS, ProcessPageSchema, type ProcessPage } from '@shared/contract/form-pages';
import type { Generated } from 'kysely';
import { z } from 'zod';

/**
 * Process pages of a form (shared/contract/form-pages.ts): stored as the JSON column
 * `forms.process_pages` (migration 0043). The §5 rules are shared/rules/form-pages-rules.ts,
 * checked with the rest of the form on save (forms.ts).
 */

declare module './tables' {
  interface FormsTable {
    /** Migration 0043: JSON array of the process pages, in order. */
    process_pages: Generated<string>;
  }
}

// Pages stored before the icon (issue 16) or the condition (issue 33) have none; an icon no longer in the list reads as none.
const StoredPagesSchema = z.array(ProcessPageSchema.extend({ icon: z.enum(FORM_PAGE_ICONS).nullable().catch(null), condition: FieldConditionSchema.nullable().catch(null) }));

/** The stored pages; a column that does not parse reads as no pages (one page), never a 500. */
export function pagesOf(row: { process_pages: string }): ProcessPage[] {
  try {
    const parsed = StoredPagesSchema.safeParse(JSON.parse(row.process_pages));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export const pagesColumn = (pages: readonly ProcessPage[]) => JSON.stringify(pages.map(({ id, title, description, icon, condition }) => ({ id, title: title.trim(), description, icon, condition })));
