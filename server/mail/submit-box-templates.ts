import type { TemplatesOf } from './template-types';

/** The submit box (issue 16 §1): the single-use ticket link to a partner. */
export const SUBMIT_BOX_TEMPLATES: TemplatesOf<'submitTicket'> = {
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
};
