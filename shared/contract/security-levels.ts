import type { DeliverySendConfig } from './config';
import { SECURITY_LEVELS, type SecurityLevelName } from './constants';
import type { SecurityLevel } from './deliveries';

/**
 * The one table of the four security levels (SPEC §3/§4, DESIGN §3). Everything outside this
 * folder asks the table — `isE2eLevel(level)`, `encryptsMessage(level)`, `opensByLink(level)`,
 * `SECURITY_LEVEL_ORDER`, `securityLevelInfo(level).textKey` — and never spells a wire value
 * (0/10/20/30), a level number (1–4) or a level name (`LEVEL_3`) itself; tests/lint/levels.test.ts
 * fails on any such spelling in server, web, add-in or the rest of shared.
 */

/** Key (without namespace) of the level's label; `send`, `addin` and `admin` name their labels so. */
export type SecurityLevelTextKey = 'level1' | 'level2' | 'level3' | 'level4';

/** The `DeliverySendConfig` flag that allows a level (`allowSecurityLevel1..4`). */
export type SecurityLevelAllowFlag = 'allowSecurityLevel1' | 'allowSecurityLevel2' | 'allowSecurityLevel3' | 'allowSecurityLevel4';

export interface SecurityLevelInfo {
  /** The numeric value on the wire and in the database (SPEC §4 enum). */
  readonly wire: SecurityLevel;
  /** The enum name (API documentation, logs). */
  readonly name: SecurityLevelName;
  /** 1–4 as people read it (SPEC §3 table, mails). */
  readonly number: 1 | 2 | 3 | 4;
  /** The send-config flag that allows it. */
  readonly allowFlag: SecurityLevelAllowFlag;
  /** Level 1: whoever has the link opens the delivery, without signing in. */
  readonly opensByLink: boolean;
  /** Levels 3 and 4: the files are end-to-end encrypted (SecuPass); the server never sees them in clear. */
  readonly e2e: boolean;
  /** Level 4: subject and message travel only inside the encrypted manifest. */
  readonly encryptsMessage: boolean;
  /** Label key; the namespace depends on the screen (`send:level3`, `addin:send.level3`, …). */
  readonly textKey: SecurityLevelTextKey;
}

/** In SPEC §4 order: the minimal level is the first allowed one in this order. */
export const SECURITY_LEVEL_TABLE: readonly SecurityLevelInfo[] = [
  { wire: SECURITY_LEVELS.LEVEL_1, name: 'LEVEL_1', number: 1, allowFlag: 'allowSecurityLevel1', opensByLink: true, e2e: false, encryptsMessage: false, textKey: 'level1' },
  { wire: SECURITY_LEVELS.LEVEL_2, name: 'LEVEL_2', number: 2, allowFlag: 'allowSecurityLevel2', opensByLink: false, e2e: false, encryptsMessage: false, textKey: 'level2' },
  { wire: SECURITY_LEVELS.LEVEL_3, name: 'LEVEL_3', number: 3, allowFlag: 'allowSecurityLevel3', opensByLink: false, e2e: true, encryptsMessage: false, textKey: 'level3' },
  { wire: SECURITY_LEVELS.LEVEL_4, name: 'LEVEL_4', number: 4, allowFlag: 'allowSecurityLevel4', opensByLink: false, e2e: true, encryptsMessage: true, textKey: 'level4' },
];

const BY_WIRE = new Map<number, SecurityLevelInfo>(SECURITY_LEVEL_TABLE.map((info) => [info.wire, info]));

/** The wire values in SPEC §4 order. */
export const SECURITY_LEVEL_ORDER: readonly SecurityLevel[] = SECURITY_LEVEL_TABLE.map((info) => info.wire);

/** The end-to-end levels (3 and 4), e.g. for a database `in` filter. */
export const E2E_SECURITY_LEVELS: readonly SecurityLevel[] = SECURITY_LEVEL_TABLE.filter((info) => info.e2e).map((info) => info.wire);

/** Narrows a number (a database column, a parsed value) to a level without a cast. */
export function isSecurityLevel(value: unknown): value is SecurityLevel {
  return typeof value === 'number' && BY_WIRE.has(value);
}

/** The level a people-facing number (1–4) stands for, as wires between servers carry it (docs/trust-networks.md). */
export function securityLevelOfNumber(number: SecurityLevelInfo['number']): SecurityLevel {
  const info = SECURITY_LEVEL_TABLE.find((row) => row.number === number);
  if (!info) throw new RangeError(`Unknown security level number ${String(number)}`);
  return info.wire;
}

/** The table row of a level. */
export function securityLevelInfo(level: SecurityLevel): SecurityLevelInfo {
  const info = BY_WIRE.get(level);
  // Unreachable for a SecurityLevel; a corrupt database value must not pass as "not encrypted".
  if (!info) throw new RangeError(`Unknown security level ${String(level)}`);
  return info;
}

/** Levels 3 and 4: files end-to-end encrypted (and at 4 the message too). */
export const isE2eLevel = (level: SecurityLevel): boolean => securityLevelInfo(level).e2e;

/** Level 4: subject and message only inside the encrypted manifest. */
export const encryptsMessage = (level: SecurityLevel): boolean => securityLevelInfo(level).encryptsMessage;

/** Level 1: the link alone opens the delivery (no sign-in). */
export const opensByLink = (level: SecurityLevel): boolean => securityLevelInfo(level).opensByLink;

/** 1–4 as people read it. */
export const securityLevelNumber = (level: SecurityLevel): 1 | 2 | 3 | 4 => securityLevelInfo(level).number;

/** `a` is below `b` in SPEC §4 order. */
export const isLowerLevel = (a: SecurityLevel, b: SecurityLevel): boolean => securityLevelInfo(a).number < securityLevelInfo(b).number;

/** Levels the send config allows (`allowSecurityLevel1..4`), in SPEC §4 order. */
export function allowedSecurityLevels(config: Pick<DeliverySendConfig, SecurityLevelAllowFlag>): SecurityLevel[] {
  return SECURITY_LEVEL_TABLE.filter((info) => config[info.allowFlag]).map((info) => info.wire);
}

/** The minimal level: the first allowed one (SPEC §4); undefined when none is allowed. */
export function minimalSecurityLevel(config: Pick<DeliverySendConfig, SecurityLevelAllowFlag>): SecurityLevel | undefined {
  return allowedSecurityLevels(config)[0];
}

/** Levels without end-to-end encryption (1 and 2): what a new sender group offers by default. */
export const SERVER_READABLE_LEVELS: readonly SecurityLevel[] = SECURITY_LEVEL_TABLE.filter((info) => !info.e2e).map((info) => info.wire);
