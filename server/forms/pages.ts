import { ProcessPageSchema, type ProcessPage } from '@shared/contract/form-pages';
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

const StoredPagesSchema = z.array(ProcessPageSchema);

/** The stored pages; a column that does not parse reads as no pages (one page), never a 500. */
export function pagesOf(row: { process_pages: string }): ProcessPage[] {
  try {
    const parsed = StoredPagesSchema.safeParse(JSON.parse(row.process_pages));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export const pagesColumn = (pages: readonly ProcessPage[]) => JSON.stringify(pages.map(({ id, title, description }) => ({ id, title: title.trim(), description })));
