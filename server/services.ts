import type { Kysely, Transaction } from 'kysely';
import type { AuditLog } from './audit/audit-log';
import type { KuvertConfig } from './config';
import type { RequestContext } from './core/request-context';
import type { DatabaseKind } from './db/database';
import type { Database } from './db/schema';
import type { DeliveryRecipient, NewDescriptor, RecipientKeysResponse, ReleaseList } from '@shared/contract/deliveries';
import type { UserPublicKeysResponse } from '@shared/contract/secupass';
import type { Language } from '@shared/contract/constants';
import type { DeliveryRow, RecipientRow } from './deliveries/records';
import type { Mailer } from './mail/mailer';
import type { CaptchaStore } from './security/captcha';
import type { LoginThrottle } from './security/login-throttle';
import type { Clock } from './security/clock';
import type { RateLimiter } from './security/rate-limiter';
import type { SecretBox } from './security/secret-box';
import type { SecuPassRepository } from './secupass/secupass-repository';
import type { VerificationCodes } from './security/verification-codes';
import type { SessionsStore } from './sessions/sessions-store';
import type { SmsGateway } from './sms/sms-gateway';
import type { SettingsStore } from './settings/settings-store';
import type { BlobStore } from './storage/blob-store';
import type { UserRow, UsersRepository } from './users/users-repository';

/**
 * What route plugins find on the app instance (fastify/demo style: repositories and
 * services decorate the instance; routes never open their own connections).
 */
export interface KuvertServices {
  config: KuvertConfig;
  db: Kysely<Database>;
  databaseKind: DatabaseKind;
  users: UsersRepository;
  sessions: SessionsStore;
  settings: SettingsStore;
  mailer: Mailer;
  /** SMS (local mailbox folder by default, KUVERT_SMS_GATEWAY_URL for a real gateway). */
  sms: SmsGateway;
  rateLimiter: RateLimiter;
  /** Seals and opens TOTP secrets at rest with the server key (security/secret-box.ts). */
  secretBox: SecretBox;
  captchas: CaptchaStore;
  /** Sign-in throttling: per-account progressive delays, per-address limits (`security/login-throttle.ts`). */
  loginThrottle: LoginThrottle;
  verificationCodes: VerificationCodes;
  secupass: SecuPassRepository;
  auditLog: AuditLog;
  /**
   * The time the public links (file, folder and upload links of data rooms) are checked against:
   * `Date.now` unless `buildApp({ clock })` passes another (tests move it past a link's date;
   * server/README "The links' clock"). Elsewhere the server reads `Date.now()` itself.
   */
  clock: Clock;
  /** File bytes (local folder `<dataDir>/blobs` by default). */
  blobs: BlobStore;
  /** The database job queue (`jobs/job-queue.ts`): `kick()` after enqueueing so this server starts at once. */
  jobs: { kick(): void; whenIdle(): Promise<void> };
  /**
   * What features above deliveries (Flows) do when a draft is sent (`deliveries/sending.ts`), filled by
   * `app.ts`: `beforeSend` runs before the send's checks (it may still add files as the sender),
   * `sent` inside the transaction that marks the delivery sent.
   */
  deliveryHooks: {
    beforeSend: ReadonlyArray<(ctx: RequestContext, delivery: DeliveryRow) => Promise<void>>;
    sent: ReadonlyArray<(trx: Transaction<Database>, delivery: DeliveryRow) => Promise<void>>;
    /** The subject a recipient's notification mail names, where a feature above knows it better (a submit-box submission); undefined: the delivery's own. */
    mailSubject(delivery: Pick<DeliveryRow, 'id'>, language: Language): Promise<string | undefined>;
    /** The web form a level 3/4 delivery is the submission of (its sender is that submission's own account); undefined: none. */
    fromForm(delivery: Pick<DeliveryRow, 'id'>): Promise<{ name: string } | undefined>;
    /**
     * Recipients a trust-network partner serves (`trust-networks/`, which builds on deliveries and so
     * is asked through here): the addresses of a delivery it carries, their state on the sender's
     * side, and a first download to report back to the partner a delivery came from (true: reported,
     * no receipt mail here).
     */
    partners: {
      servedRecipients(deliveryId: number): Promise<Set<string>>;
      serverStates(deliveryId: number): Promise<Map<string, NonNullable<DeliveryRecipient['partnerServer']>>>;
      reportDownload(delivery: Pick<DeliveryRow, 'id'>, recipient: Pick<RecipientRow, 'email'>, fileName: string, at: number): Promise<boolean>;
      /** Levels 3/4, the sender's side: keys of partner-served addresses from the partner's signed look-up. */
      recipientKeys(delivery: Pick<DeliveryRow, 'id'> | null, emails: readonly string[]): Promise<Map<string, RecipientKeysResponse['recipients'][number]>>;
      /** Levels 3/4, the sender's side: keeps the copies wrapped to partner recipients; returns the others. */
      keepDescriptors(delivery: Pick<DeliveryRow, 'id'>, descriptors: readonly NewDescriptor[]): Promise<NewDescriptor[]>;
      /** Levels 3/4, the recipient's side: the signer of a delivery that came through a connection (its id on the sender's server). */
      sender(deliveryId: number): Promise<{ userUuid: string } | undefined>;
      /** Levels 3/4, the recipient's side: a partner sender's public keys, for a recipient of its deliveries. */
      senderKeys(caller: UserRow, userUuid: string): Promise<UserPublicKeysResponse | undefined>;
      /** Levels 3/4, the sender's side: partner recipients who set a passphrase since and wait for a release. */
      releaseItems(sender: UserRow): Promise<ReleaseList['items']>;
      /** Levels 3/4, the sender's side: a release to a partner recipient, sent to the partner (false: not one). */
      release(sender: UserRow, delivery: DeliveryRow, descriptors: readonly NewDescriptor[]): Promise<boolean>;
      /** Levels 3/4, the recipient's side: a recipient set a passphrase; the partner that sent is told (true: came through a connection). */
      releaseNeeded(delivery: Pick<DeliveryRow, 'id'>, email: string): Promise<boolean>;
    };
  };
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyInstance extends KuvertServices {}
}
