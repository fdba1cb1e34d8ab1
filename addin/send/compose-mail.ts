import type { ComposeAttachment, ComposeRecipients, OfficeHost } from '@addin/office/office-host';
import { normaliseAddresses } from '@shared/deliveries';

/** The composed mail as the send screen shows and sends it. */
export interface ComposedMail {
  recipients: string[];
  /** cc and bcc: sent as additional recipients. */
  additionalRecipients: string[];
  subject: string;
  body: string;
  attachments: ComposeAttachment[];
}

export async function readComposedMail(host: OfficeHost): Promise<ComposedMail> {
  // Sequential on purpose: Outlook on the web allows only 3 simultaneous async calls (DESIGN §6).
  const recipients: ComposeRecipients = await host.getRecipients();
  const subject = await host.getSubject();
  const body = await host.getBody();
  const attachments = (await host.getAttachments()).filter((a) => a.kind !== 'cloud');
  return {
    recipients: normaliseAddresses(recipients.to),
    additionalRecipients: normaliseAddresses([...recipients.cc, ...recipients.bcc]).filter((a) => !recipients.to.map((r) => r.toLowerCase()).includes(a)),
    subject,
    body: body.trim(),
    attachments,
  };
}

/** Reads each attachment once (Outlook hands out base64; DESIGN §6) as a File for the upload. */
export async function readAttachmentFiles(host: OfficeHost, attachments: readonly ComposeAttachment[]): Promise<File[]> {
  const files: File[] = [];
  for (const attachment of attachments) {
    const blob = await host.getAttachmentContent(attachment);
    const name = attachment.kind === 'item' && !/\.eml$/i.test(attachment.name) ? `${attachment.name}.eml` : attachment.name;
    files.push(new File([blob], name, { type: blob.type }));
  }
  return files;
}
