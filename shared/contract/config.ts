import { z } from 'zod';
import { FilePolicySchema } from './file-policy';

/** Keys of the configuration profile (SPEC §3). Per-language keys end in `.de`, `.en`, `.fr`. */
export const CONFIG_KEYS = {
  wizardFinished: 'ftapi.wizard.finished',
  webUiTitle: 'ftapi.layout.webui.title',
  maintenanceActivated: 'ftapi.maintenanceInfo.activated',
  /** + `.de|.en|.fr` */
  maintenanceTitle: 'ftapi.maintenanceInfo.title',
  /** + `.de|.en|.fr` */
  maintenanceContent: 'ftapi.maintenanceInfo.content',
  maintenanceBackgroundColor: 'ftapi.maintenanceInfo.backgroundColor',
  maintenanceTextColor: 'ftapi.maintenanceInfo.textColor',
  maintenanceButtonColor: 'ftapi.maintenanceInfo.buttonColor',
  /** ISO 8601 date-time or null (null = no bound). */
  maintenanceStartDate: 'ftapi.maintenanceInfo.startDate',
  /** ISO 8601 date-time or null (null = no bound). */
  maintenanceExpirationDate: 'ftapi.maintenanceInfo.expirationDate',
  productHelpWorkspaceCode: 'ftapi.productHelp.config.workspaceCode',
  productHelpEndpoint: 'ftapi.productHelp.config.endpoint',
  analyticsEnabled: 'ftapi.pip.config.pip.enabled',
  analyticsApiKey: 'ftapi.pip.config.pip.apikey',
  analyticsUrl: 'ftapi.pip.config.pip.url',
  customerId: 'ftapi.customerId',
  themeColor: 'ftapi.layout.css.color.theme',
  themeHoverColor: 'ftapi.layout.css.color.themeHover',
  tableRowColor: 'ftapi.layout.css.color.tableRow',
  tableRowHoverColor: 'ftapi.layout.css.color.tableRowHover',
} as const;

export const ConfigValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type ConfigValue = z.infer<typeof ConfigValueSchema>;

/** GET /config/profile (SPEC §7): "response has config map". */
export const ConfigProfileResponseSchema = z
  .object({ config: z.record(z.string(), ConfigValueSchema) })
  .meta({ id: 'ConfigProfileResponse' });
export type ConfigProfileResponse = z.infer<typeof ConfigProfileResponseSchema>;

/** GET /delivery/send/config (SPEC §3, §7). Expiration bounds are milliseconds. */
export const DeliverySendConfigSchema = z
  .object({
    allowSecurityLevel1: z.boolean(),
    allowSecurityLevel2: z.boolean(),
    allowSecurityLevel3: z.boolean(),
    allowSecurityLevel4: z.boolean(),
    deliveryCleanupEnabled: z.boolean(),
    deliveryCleanupCustomExpiration: z.boolean(),
    deliveryCleanupExpirationMin: z.number().int().nonnegative(),
    deliveryCleanupExpirationMax: z.number().int().nonnegative(),
    /** `kuvert.delivery.signup.requireSms`: unregistered recipients sign up with an SMS code, so the send page asks for their phone numbers. */
    signupRequiresSms: z.boolean(),
    /**
     * The forbidden file types (settings `kuvert.delivery.blockedExtensions` / `blockedMimeTypes`), so the
     * send pages mark a forbidden attachment as soon as it is added (shared/contract/file-policy.ts).
     * Absent only from clients' own defaults.
     */
    filePolicy: FilePolicySchema.optional(),
    /**
     * What the caller may send (server/deliveries/senders.ts); the level flags above are already
     * limited by the caller's sender group. Absent only from clients' own defaults.
     */
    sender: z
      .object({
        /** A licensed sender; an unlicensed one reaches licensed registered users only (SenderNotLicensedException). */
        licensed: z.boolean(),
        /** ROLE_SENDER_EXTERNAL without ROLE_SENDER: may only reply to the senders of deliveries received. */
        replyOnly: z.boolean(),
        /** May send to unregistered addresses (invite them); false → InviteUserToShareException. */
        mayInvite: z.boolean(),
        /** The caller's sender group, if any. */
        group: z.string().nullable(),
      })
      .optional(),
  })
  .meta({ id: 'DeliverySendConfig' });
export type DeliverySendConfig = z.infer<typeof DeliverySendConfigSchema>;
