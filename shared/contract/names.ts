/**
 * The one name rule (SPEC §5 "file names must not contain invalid characters", "file-system names
 * have no invalid characters and are not too long"; §8 "invalid file name") for every name the
 * product stores from a person: delivery, form and submit-box files, data rooms, folders and room
 * files (plain rooms on the server, E2E rooms in the browser before the name is sealed). The
 * server, the web client and the add-in call these same functions, so a name the browser accepts
 * is one the server stores.
 *
 * Names are stored and compared in Unicode NFC: "e\u0301" and "é" are one name.
 */

/** Common file systems (ext4, NTFS, APFS) allow 255 bytes/units per name; counted in UTF-16 units, NTFS's measure. */
export const MAX_NAME_LENGTH = 255;
/**
 * Characters Windows, macOS or Linux refuse in a file name (and control characters):
 * a recipient must be able to save the file under its name.
 */
// eslint-disable-next-line no-control-regex
export const INVALID_NAME_CHARACTERS = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*]/;
/**
 * Bidirectional controls: they let "invoice\u202Efdp.exe" look like "invoiceexe.pdf"
 * (embeddings, overrides, isolates, and the implicit marks LRM, RLM, ALM).
 */
export const BIDI_CONTROL_CHARACTERS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Invisible characters that make two names look alike: zero-width space/joiners, word joiner, BOM, soft hyphen. */
export const ZERO_WIDTH_CHARACTERS = /[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]/;
/** Device names Windows will not save a file under, with or without an extension ("CON", "nul.txt", "COM1.tar.gz"). */
export const WINDOWS_RESERVED_NAME = /^(?:con|prn|aux|nul|com[1-9\u00b9\u00b2\u00b3]|lpt[1-9\u00b9\u00b2\u00b3])(?:\.|$)/i;

/** Why a name is refused; the clients show it at once, the server answers it in `metadata.nameProblem`. */
export const NAME_PROBLEMS = ['blank', 'tooLong', 'surroundingBlanks', 'invalidCharacters', 'bidiControl', 'zeroWidth', 'reservedName', 'trailingDotOrSpace'] as const;
export type NameProblem = (typeof NAME_PROBLEMS)[number];

export const isNameProblem = (value: unknown): value is NameProblem => NAME_PROBLEMS.some((p) => p === value);

/** The form a name is stored and compared in: Unicode NFC (macOS hands out NFD names). */
export function normaliseName(rawName: string): string {
  return rawName.normalize('NFC');
}

/** The key two names are the same under (uniqueness checks): NFC, case folded. */
export function nameKey(rawName: string): string {
  return normaliseName(rawName).toLowerCase();
}

/**
 * The rule, on the NFC form: not blank, no leading or trailing blanks, no invalid or control
 * characters, no bidi controls, no zero-width characters, not `.`/`..`, not a Windows device name,
 * no trailing dot or space (Windows drops them, so "a.exe." would become "a.exe"), at most
 * MAX_NAME_LENGTH. Undefined = valid.
 */
export function nameProblem(rawName: string): NameProblem | undefined {
  const name = normaliseName(rawName);
  if (name.trim() === '') return 'blank';
  if (name.length > MAX_NAME_LENGTH) return 'tooLong';
  if (BIDI_CONTROL_CHARACTERS.test(name)) return 'bidiControl';
  if (ZERO_WIDTH_CHARACTERS.test(name)) return 'zeroWidth';
  if (INVALID_NAME_CHARACTERS.test(name)) return 'invalidCharacters';
  if (name !== name.trim()) return 'surroundingBlanks';
  if (name === '.' || name === '..') return 'invalidCharacters';
  if (/[. ]$/.test(name)) return 'trailingDotOrSpace';
  if (WINDOWS_RESERVED_NAME.test(name)) return 'reservedName';
  return undefined;
}

/** What the rule refuses in a name that is not a file-system name (a form's): the disguising and invisible characters. */
export type TextNameProblem = 'controlCharacters' | 'bidiControl' | 'zeroWidth';

/**
 * The rule's character part for a display name that never becomes a file name (a web form's
 * name may hold `:` or `?`): on the NFC form, no bidi controls, zero-width characters, BOM or
 * control characters. Undefined = valid.
 */
export function textNameProblem(rawName: string): TextNameProblem | undefined {
  const name = normaliseName(rawName);
  if (BIDI_CONTROL_CHARACTERS.test(name)) return 'bidiControl';
  if (ZERO_WIDTH_CHARACTERS.test(name)) return 'zeroWidth';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'controlCharacters';
  return undefined;
}

/**
 * A name typed into a dialog (room, folder, rename): spaces around it are dropped, then the rule
 * applies; the value to store is `name` (NFC). Dropped files keep their own name (a blank is refused).
 */
export function typedName(rawName: string): { name: string; problem: NameProblem | undefined } {
  // Spaces only: String.trim() would also drop a BOM or other invisible characters the rule refuses.
  const name = normaliseName(rawName.replace(/^ +| +$/g, ''));
  return { name, problem: nameProblem(name) };
}

/** The server's 400 for a refused name (every store answers it alike): message, and `metadata` beside `field: 'name'`. */
export const INVALID_NAME_MESSAGE = 'Invalid file name';
export const INVALID_NAME_REASON = 'invalidFileName';

/** How many keep-both names are tried before the upload gives up (each is one announce). */
export const KEEP_BOTH_TRIES = 100;

/**
 * The names "keep both" tries for a taken name, in order: "a.txt" and "a (1).txt" both count from
 * "a" — "a (1).txt", "a (2).txt", … (never "a (1) (1).txt"), skipping the taken name itself; the
 * stem is shortened where a number would push the name past MAX_NAME_LENGTH (UTF-16 units, as the
 * rule counts). Used by the web's "keep both" and by migration 0058 (names made alike by NFC).
 */
export function keepBothNames(name: string, tries = KEEP_BOTH_TRIES): string[] {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const base = /^(.*\S) \(\d+\)$/.exec(stem)?.[1] ?? stem;
  const names: string[] = [];
  for (let n = 1; names.length < tries; n++) {
    const suffix = ` (${n})${ext}`;
    // UTF-16 units, as the name rule counts; shortened by whole code points (no half surrogate pair).
    const room = MAX_NAME_LENGTH - suffix.length;
    const chars = [...base];
    while (chars.length > 1 && chars.join('').length > room) chars.pop();
    const candidate = (chars.length < [...base].length ? chars.join('').trimEnd() : base) + suffix;
    if (candidate.toLowerCase() !== name.toLowerCase()) names.push(candidate);
  }
  return names;
}
