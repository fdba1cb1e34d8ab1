import type { Language } from '@shared/contract/constants';
import type { SecurityLevel } from '@shared/contract/deliveries';

/**
 * Data each template needs (templates.ts renders them). Add a template by adding a key here and
 * its texts in account-templates.ts or delivery-templates.ts.
 */
export interface MailTemplateData {
  accountVerificationCode: { code: string; validMinutes: number };
  passwordResetLink: { link: string; validMinutes: number };
  passwordChanged: { changedAt: string };
  /** An administrator created the account (issue 17 §1): `link` sets the password and proves the address. */
  userInvitation: { link: string; validDays: number; inviterName: string };
  /** Someone signed up with an address that already has an account (the sign-up page does not tell). */
  signupExistingAccount: { loginLink: string; resetLink: string };
  /** Someone keeps failing to sign in to the account (sign-in throttling): at most one a day. */
  signInAttempts: { failures: number; address: string; at: string };
  /** An administrator reset the user's SecuPass (personal passphrase); `link` opens Kuvert. */
  secupassReset: { resetAt: string; link: string };
  /**
   * A delivery arrived (levels 1 and 2). `link`: level 1 the secure link with its token,
   * level 2 the inbox entry (sign-in required). `expiresOn`: UTC date or null (no expiry).
   */
  newDelivery: { senderName: string; senderEmail: string; subject: string; link: string; level: SecurityLevel; fileCount: number; expiresOn: string | null; /** Unregistered recipient of a level ≥ 2 delivery: the link leads to the delivery signup. */ signup?: boolean };
  /**
   * Levels 3/4, a recipient without a usable SecuPass: `registered` false → sign up first;
   * then create a passphrase and wait until the sender releases the delivery.
   */
  e2eInvitation: { senderName: string; senderEmail: string; subject: string; link: string; registered: boolean };
  /** To the sender: a recipient now has a passphrase; the delivery waits for the release. */
  releaseNeeded: { recipient: string; subject: string; link: string };
  /** To the recipient: the sender released the delivery (re-wrapped the keys to the new passphrase). */
  deliveryReleased: { senderName: string; subject: string; link: string };
  /** To the sender, once per recipient: the first complete download. */
  downloadReceipt: { recipient: string; subject: string; fileName: string; link: string };
  /** To the sender: the virus scan blocked the delivery; nobody was notified. */
  deliveryBlocked: { subject: string; reason: 'virus' | 'mimeType' | 'scanFailed'; link: string };
  /** Submit box: the partner's single-use ticket link (server/submit-box). */
  submitTicket: { ownerName: string; link: string; validDays: number };
  /** Submit box: a guest ticket the owner created for a named person (issue 33 §3): their subject and message, `expiresOn` UTC YYYY-MM-DD. */
  submitGuestTicket: { ownerName: string; subject: string; message: string; link: string; expiresOn: string };
  /** Web forms: the submitter's confirmation (`text` from the form's Layout tab, `date` YYYY-MM-DD). */
  formConfirmation: { formName: string; text: string; date: string };
  /** Data-room request (server/rooms/requests/requests.ts): `link` the send page's dar variant, or the signup first (`signup`). */
  roomRequest: { requesterName: string; requesterEmail: string; roomName: string; folderName: string | null; message: string; link: string; expiresOn: string; signup: boolean };
  /** To the requester: the answering delivery's files are in the folder (`link` opens it). */
  roomRequestAnswered: { senderEmail: string; roomName: string; folderName: string | null; fileCount: number; link: string };
  /** Data rooms: an address without an account was invited (`roomName` null: an E2E room, its name is sealed). */
  roomInvitation: { inviterName: string; roomName: string | null; role: string; link: string; validDays: number };
  /** To a registered person given access to a room (`roomName` null: a Secure room, its name is sealed). */
  roomAdded: { actorName: string; roomName: string | null; role: string; link: string };
  /** To a Secure room's OWNERs: a member activated end-to-end encryption and waits for the room key. */
  roomKeyWaiting: { memberName: string; memberEmail: string; link: string };
  /** To the member: an OWNER granted the Secure room's key. */
  roomKeyGranted: { actorName: string; link: string };
  /**
   * To the requester: the copy into the folder gave up (room or folder deleted, no space); `placed`
   * of `fileCount` files made it. The delivery itself reached them: `link` opens it in the inbox.
   */
  roomRequestNotPlaced: { senderEmail: string; roomName: string; folderName: string | null; fileCount: number; placed: number; link: string };
}
export type MailTemplateName = keyof MailTemplateData;

/** What every mail knows besides its own data. */
export interface MailContext {
  /** The organisation name from System settings (`kuvert.organisation.name`): named in every mail and its signature. */
  organisation: string;
}

export interface LocalizedTemplate<D> {
  subject: (d: D & MailContext) => string;
  /** Paragraphs of the body; each is rendered as text and as an escaped HTML paragraph. */
  paragraphs: (d: D & MailContext) => string[];
  /** Optional call-to-action link, shown as a button in HTML and as a bare URL in text. */
  action?: (d: D & MailContext) => { label: string; url: string };
}

export type TemplateTable = {
  [K in MailTemplateName]: Record<Language, LocalizedTemplate<MailTemplateData[K]>>;
};

/** The templates of some kinds, in every language. */
export type TemplatesOf<K extends MailTemplateName> = Pick<TemplateTable, K>;
