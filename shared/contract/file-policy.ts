import { z } from 'zod';

/**
 * The forbidden-file rule of SPEC §5 (settings `kuvert.delivery.blockedExtensions` and
 * `kuvert.delivery.blockedMimeTypes`), in one place: the server refuses an attachment with it
 * (FileNotAllowedException, server/deliveries/rules.ts) and the send pages mark the same files as
 * soon as they are added (the send config carries the policy). Pure, no I/O.
 */

/** What the send config tells the clients (lower case, extensions without the dot). */
export const FilePolicySchema = z
  .object({
    blockedExtensions: z.array(z.string()),
    /** Whole types (`application/x-msdownload`) or families (`video/*`). */
    blockedMimeTypes: z.array(z.string()),
  })
  .meta({ id: 'FilePolicy' });
export type FilePolicy = z.infer<typeof FilePolicySchema>;

/** Parses a comma-separated setting into lower-case entries (extensions without a leading dot). */
export function parseFileTypeList(value: unknown): string[] {
  return String(value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase().replace(/^\./, ''))
    .filter((v) => v !== '');
}

/** The last extension of a file name, lower case, without the dot ('' = none): `Report.PDF.EXE` → `exe`. */
export function fileExtension(name: string): string {
  const normalised = name.normalize('NFC');
  return normalised.includes('.') ? normalised.slice(normalised.lastIndexOf('.') + 1).toLowerCase() : '';
}

/** A declared MIME type without parameters, lower case (`Text/Plain; charset=x` → `text/plain`). */
export function bareMimeType(mimeType: string): string {
  return mimeType.trim().toLowerCase().split(';')[0]!.trim();
}

/** The policy refuses this extension (without dot, lower case; '' = none) or MIME type (`type/*` entries match the family). */
export function isBlockedType(extension: string, mimeType: string, policy: FilePolicy): boolean {
  return blockedBy(extension, mimeType, policy) !== null;
}

function blockedBy(extension: string, mimeType: string, policy: FilePolicy): 'extension' | 'mimeType' | null {
  if (extension !== '' && policy.blockedExtensions.includes(extension)) return 'extension';
  const mime = bareMimeType(mimeType);
  if (policy.blockedMimeTypes.some((b) => (b.endsWith('/*') ? mime.startsWith(b.slice(0, -1)) : mime === b))) return 'mimeType';
  return null;
}

/** Why a file is refused, or null when the policy lets it through. */
export interface BlockedFile {
  /** The rule that matched: the extension first, else the declared type. */
  by: 'extension' | 'mimeType';
  extension: string;
  mimeType: string;
}

/** The one check of a file's name and declared type against the policy (server and clients). */
export function blockedFile(file: { name: string; mimeType: string }, policy: FilePolicy): BlockedFile | null {
  const extension = fileExtension(file.name);
  const mimeType = bareMimeType(file.mimeType);
  const by = blockedBy(extension, mimeType, policy);
  return by === null ? null : { by, extension, mimeType };
}
