import type { ConfigValue } from '@shared/contract/config';
import { SETTING_KEYS } from '@shared/contract/settings';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { parseFileTypeList } from '@shared/contract/file-policy';
import type { DeliverySendConfig } from '@shared/contract/config';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { ALL_DEFAULTS, PROFILE_DEFAULTS } from './defaults';

/**
 * Settings live in the database (key → JSON value) so every server of a cluster sees
 * the same; a key never written reads as its default.
 */
export interface SettingsStore {
  getAll(): Promise<Record<string, ConfigValue>>;
  get<T extends ConfigValue>(key: string): Promise<T>;
  profile(): Promise<Record<string, ConfigValue>>;
  deliverySendConfig(): Promise<DeliverySendConfig>;
  /** Writes the given keys (validated by the caller) in one transaction. */
  set(values: Record<string, ConfigValue>): Promise<void>;
}

export function createSettingsStore(db: Kysely<Database>): SettingsStore {
  async function stored(): Promise<Record<string, ConfigValue>> {
    const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
    const out: Record<string, ConfigValue> = {};
    for (const row of rows) out[row.key] = JSON.parse(row.value) as ConfigValue;
    return out;
  }

  async function getAll(): Promise<Record<string, ConfigValue>> {
    return { ...ALL_DEFAULTS, ...(await stored()) };
  }

  return {
    getAll,
    async get<T extends ConfigValue>(key: string): Promise<T> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return (row ? JSON.parse(row.value) : (ALL_DEFAULTS[key] ?? null)) as T;
    },
    async profile() {
      const all = await getAll();
      return Object.fromEntries(Object.keys(PROFILE_DEFAULTS).map((k) => [k, all[k] ?? null]));
    },
    async deliverySendConfig() {
      const all = await getAll();
      return {
        allowSecurityLevel1: all[SETTING_KEYS.allowSecurityLevel1] === true,
        allowSecurityLevel2: all[SETTING_KEYS.allowSecurityLevel2] === true,
        allowSecurityLevel3: all[SETTING_KEYS.allowSecurityLevel3] === true,
        allowSecurityLevel4: all[SETTING_KEYS.allowSecurityLevel4] === true,
        deliveryCleanupEnabled: all[SETTING_KEYS.deliveryCleanupEnabled] === true,
        deliveryCleanupCustomExpiration: all[SETTING_KEYS.deliveryCleanupCustomExpiration] === true,
        deliveryCleanupExpirationMin: Number(all[SETTING_KEYS.deliveryCleanupExpirationMin]),
        deliveryCleanupExpirationMax: Number(all[SETTING_KEYS.deliveryCleanupExpirationMax]),
        signupRequiresSms: all[EXTERNAL_SETTING_KEYS.signupRequiresSms] === true,
        filePolicy: {
          blockedExtensions: parseFileTypeList(all[DELIVERY_SETTING_KEYS.blockedExtensions]),
          blockedMimeTypes: parseFileTypeList(all[DELIVERY_SETTING_KEYS.blockedMimeTypes]),
        },
      };
    },
    async set(values) {
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        for (const [key, value] of Object.entries(values)) {
          const json = JSON.stringify(value);
          await trx
            .insertInto('settings')
            .values({ key, value: json, updated_at: now })
            .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
            .execute();
        }
      });
    },
  };
}
