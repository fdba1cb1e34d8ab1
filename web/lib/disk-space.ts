import { ROUTES } from '@web/lib/routes';
import type { TransferMessage } from '@web/lib/transfer-store';

/** The bundled help's section on downloads and disk space (web/features/help/help-page.tsx). */
export const DISK_SPACE_HELP = `${ROUTES.help}#help-downloads`;

/**
 * Whether writing a download to disk failed for want of space: the File System Access writable
 * (the save picker's path) rejects with a DOMException `QuotaExceededError` when the disk or the
 * browser's quota is full. Any other write failure is a plain download error.
 */
export const isDiskSpaceError = (error: unknown): boolean => (error as { name?: unknown } | null)?.name === 'QuotaExceededError';

/** SPEC §8 "insufficient disk space (with a help link)" as a transfer's failure. */
export const DISK_SPACE_FAILURE: TransferMessage = { key: 'rooms:errors.diskSpace', help: DISK_SPACE_HELP };
