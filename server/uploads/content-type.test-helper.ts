/** The fixed start of every Windows shortcut (.lnk): header size 0x4C and the shell-link CLSID 00021401-0000-0000-C000-000000000046. */
export const LNK_HEADER = Buffer.concat([Buffer.from([0x4c, 0, 0, 0, 0x01, 0x14, 0x02, 0, 0, 0, 0, 0, 0xc0, 0, 0, 0, 0, 0, 0, 0x46]), Buffer.alloc(56)]);
/** A DOS/Windows program's start ("MZ"). */
export const EXE_HEADER = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(56)]);
/** A real 1×1 PNG. */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
