// The names inside a Secure room's ZIP (web/README.md "Secure room ZIP download"). They come
// from decrypted names the server could have sealed anything into (any member may write a name),
// so each one is made safe to unpack: no path steps out of the archive's folder, no control or
// bidi characters, nothing a common file system refuses; and two names that would land on the same
// file when unpacked (case, Unicode form, or made equal by the cleaning) are numbered as "keep both"
// numbers an upload.
import type { TransferMessage } from '@web/lib/transfer-store';
import { BIDI_CONTROL_CHARACTERS, INVALID_NAME_CHARACTERS, keepBothNames, MAX_NAME_LENGTH, nameKey, normaliseName, WINDOWS_RESERVED_NAME, ZERO_WIDTH_CHARACTERS } from '@shared/contract/names';

const global = (pattern: RegExp) => new RegExp(pattern.source, 'gu');
const INVALID = global(INVALID_NAME_CHARACTERS);
const BIDI = global(BIDI_CONTROL_CHARACTERS);
const ZERO_WIDTH = global(ZERO_WIDTH_CHARACTERS);

/** The stand-in for a name that is nothing once cleaned ("", "..", only dots or blanks). */
export const UNNAMED = '_';

/**
 * One path segment (a folder's or a file's name) safe to unpack: NFC; slashes, backslashes,
 * control and other characters Windows/macOS/Linux refuse become "_"; bidi and zero-width
 * characters are dropped; blanks around it and trailing dots go; "." and ".." (or nothing left)
 * become "_"; a Windows device name gets a "_" before it; at most MAX_NAME_LENGTH UTF-16 units
 * (whole code points).
 */
export function safeZipSegment(raw: string): string {
  let name = normaliseName(raw).replace(BIDI, '').replace(ZERO_WIDTH, '').replace(INVALID, '_').trim();
  // Windows drops trailing dots and blanks; "a.txt." would unpack as "a.txt" over another entry.
  name = name.replace(/[. ]+$/u, '');
  if (name === '') return UNNAMED;
  if (WINDOWS_RESERVED_NAME.test(name)) name = `_${name}`;
  const chars = [...name];
  while (chars.join('').length > MAX_NAME_LENGTH) chars.pop();
  return chars.join('');
}

/**
 * Names of one folder of the ZIP: `take` answers the safe name of the next entry, numbered
 * ("a (1).txt", "a (2).txt") when an earlier entry of the folder took it (NFC and case folded:
 * what would be one file on Windows and macOS). Folders and files share the namespace.
 */
export class ZipFolderNames {
  private readonly taken = new Set<string>();

  take(raw: string): string {
    const safe = safeZipSegment(raw);
    const name = this.taken.has(nameKey(safe)) ? (keepBothNames(safe).find((candidate) => !this.taken.has(nameKey(candidate))) ?? `${safe} (${crypto.randomUUID()})`) : safe;
    this.taken.add(nameKey(name));
    return name;
  }
}

/** A path inside the ZIP from its folder path's segments (already safe) and the entry's name. */
export const zipPath = (folders: readonly string[], name: string): string => [...folders, name].join('/');

/** What did not make it into the ZIP, by its path below the downloaded folder (decrypted names). */
export interface Missing {
  files: string[];
  folders: string[];
}

/** Names listed in the failure message at most (the count says how many in all). */
export const MISSING_NAMES_SHOWN = 10;

/** The failure text of a ZIP saved without some of its files and folders (SPEC §8 partial download failure); none when all is in. */
export function missingMessage(missing: Missing): TransferMessage | undefined {
  const all = [...missing.folders.map((f) => `${f}/`), ...missing.files];
  if (all.length === 0) return undefined;
  const names = all.slice(0, MISSING_NAMES_SHOWN).join(', ') + (all.length > MISSING_NAMES_SHOWN ? ', …' : '');
  return { key: 'rooms:e2eZip.partialFailed', values: { count: all.length, names } };
}
