import type { TemplatesOf } from './template-types';

/** The submit box (issue 16 §1): the single-use ticket link to a partner. */
export const SUBMIT_BOX_TEMPLATES: TemplatesOf<'submitTicket' | 'submitGuestTicket'> = {
  submitTicket: {
    de: {
      subject: (d) => `${d.organisation}: Ihr Link, um Dateien an ${d.ownerName} zu senden`,
      paragraphs: (d) => [
        `Über den folgenden Link können Sie ${d.ownerName} Dateien und eine Nachricht senden.`,
        `Der Link funktioniert einmal und ist ${d.validDays} Tage gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.`,
      ],
      action: (d) => ({ label: 'Dateien senden', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: your link to send files to ${d.ownerName}`,
      paragraphs: (d) => [
        `Use the link below to send files and a message to ${d.ownerName}.`,
        `The link works once and is valid for ${d.validDays} days. If you did not ask for it, ignore this message.`,
      ],
      action: (d) => ({ label: 'Send files', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : votre lien pour envoyer des fichiers à ${d.ownerName}`,
      paragraphs: (d) => [
        `Utilisez le lien ci-dessous pour envoyer des fichiers et un message à ${d.ownerName}.`,
        `Le lien ne fonctionne qu’une fois et reste valable ${d.validDays} jours. Si vous ne l’avez pas demandé, ignorez ce message.`,
      ],
      action: (d) => ({ label: 'Envoyer des fichiers', url: d.link }),
    },
  },
  /** A guest ticket the owner created (issue 33 §3): the owner's subject and message, then the link. */
  submitGuestTicket: {
    de: {
      subject: (d) => `${d.organisation}: ${d.subject ? `${d.subject} – Link von ${d.ownerName}` : `Ihr Link, um Dateien an ${d.ownerName} zu senden`}`,
      paragraphs: (d) => [
        `${d.ownerName} bittet Sie, über den folgenden Link Dateien und eine Nachricht zu senden.`,
        ...(d.message ? [d.message] : []),
        `Der Link funktioniert einmal und ist bis zum ${d.expiresOn} (UTC) gültig.`,
      ],
      action: (d) => ({ label: 'Dateien senden', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: ${d.subject ? `${d.subject} – link from ${d.ownerName}` : `your link to send files to ${d.ownerName}`}`,
      paragraphs: (d) => [
        `${d.ownerName} asks you to send files and a message with the link below.`,
        ...(d.message ? [d.message] : []),
        `The link works once and is valid until ${d.expiresOn} (UTC).`,
      ],
      action: (d) => ({ label: 'Send files', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : ${d.subject ? `${d.subject} – lien de ${d.ownerName}` : `votre lien pour envoyer des fichiers à ${d.ownerName}`}`,
      paragraphs: (d) => [
        `${d.ownerName} vous demande d’envoyer des fichiers et un message avec le lien ci-dessous.`,
        ...(d.message ? [d.message] : []),
        `Le lien ne fonctionne qu’une fois et reste valable jusqu’au ${d.expiresOn} (UTC).`,
      ],
      action: (d) => ({ label: 'Envoyer des fichiers', url: d.link }),
    },
  },
};
