// What an upload's first bytes say it is, with `file-type` (never its name or declared type).
// In core, not uploads/: the virus scan needs it too, and uploads/ reaches storage/ (a folder loop).
import { fileTypeFromBuffer } from 'file-type';

/** Bytes read from the start of a file: what file-type needs for nearly every type (its `reasonableDetectionSizeInBytes`, not exported). */
export const DETECTION_BYTES = 4100;

export interface DetectedType {
  /** Without the dot, lower case, as the blocked-extension list is written. */
  ext: string;
  mime: string;
}

/**
 * file-type names a few types by MIME types of its own; the blocked-types setting and its defaults
 * (settings/defaults.ts) use the common names. A Windows shortcut (.lnk, file-type checks its full
 * 20-byte header and CLSID) and a DOS/Windows program ("MZ") are both known to file-type, so no
 * signature of our own is kept.
 */
const COMMON_MIME: Record<string, string> = { 'application/x.ms.shortcut': 'application/x-ms-shortcut' };

/** The type the first bytes show, or null when file-type knows none (text formats above all: HTML, SVG, CSV have no signature). */
export async function detectType(head: Uint8Array): Promise<DetectedType | null> {
  if (head.length === 0) return null;
  const hit = await fileTypeFromBuffer(head.subarray(0, DETECTION_BYTES));
  if (!hit) return null;
  return { ext: hit.ext.toLowerCase(), mime: COMMON_MIME[hit.mime] ?? hit.mime };
}
