import type { Language } from '@shared/contract/constants';
import { isE2eLevel, opensByLink } from '@shared/contract/security-levels';
import type { TemplatesOf } from './template-types';

/** What a level-4 delivery shows where a subject would be: the real subject is end-to-end encrypted (server/README.md). */
export const ENCRYPTED_SUBJECT_PLACEHOLDER: Record<Language, string> = {
  de: 'Verschlüsselte Nachricht',
  en: 'Encrypted message',
  fr: 'Message chiffré',
};

/** Mails about deliveries: arrival, invitation and release (levels 3/4), download receipt, blocked by the scan. */
export const DELIVERY_TEMPLATES: TemplatesOf<'newDelivery' | 'e2eInvitation' | 'releaseNeeded' | 'deliveryReleased' | 'downloadReceipt' | 'deliveryBlocked'> = {
  newDelivery: {
    de: {
      subject: (d) => `${d.senderName} hat Ihnen eine sichere Zustellung gesendet: ${d.subject}`,
      paragraphs: (d) => [
        `${d.senderName} (${d.senderEmail}) hat Ihnen über ${d.organisation} eine sichere Zustellung mit ${d.fileCount === 1 ? 'einer Datei' : `${d.fileCount} Dateien`} gesendet: „${d.subject}“.`,
        opensByLink(d.level)
          ? 'Der Link ist persönlich: Wer ihn hat, kann die Zustellung öffnen. Bitte leiten Sie diese Nachricht nicht weiter.'
          : d.signup
            ? `Zum Öffnen bestätigen Sie über den Link Ihre E-Mail-Adresse und legen ein Konto bei ${d.organisation} an.`
            : isE2eLevel(d.level)
              ? `Die Zustellung ist Ende-zu-Ende-verschlüsselt: Melden Sie sich bei ${d.organisation} an und geben Sie Ihre SecuPass ein.`
            : `Zum Öffnen melden Sie sich bei ${d.organisation} an.`,
        d.expiresOn ? `Die Zustellung ist bis ${d.expiresOn} (UTC) verfügbar.` : 'Die Zustellung bleibt dauerhaft verfügbar.',
      ],
      action: (d) => ({ label: 'Zustellung öffnen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.senderName} sent you a secure delivery: ${d.subject}`,
      paragraphs: (d) => [
        `${d.senderName} (${d.senderEmail}) sent you a secure delivery with ${d.fileCount === 1 ? 'one file' : `${d.fileCount} files`} through ${d.organisation}: "${d.subject}".`,
        opensByLink(d.level)
          ? 'The link is personal: whoever has it can open the delivery. Please do not forward this message.'
          : d.signup
            ? `To open it, confirm your email address from the link and create a ${d.organisation} account.`
            : isE2eLevel(d.level)
              ? `The delivery is end-to-end encrypted: sign in to ${d.organisation} and enter your SecuPass to open it.`
            : `Sign in to ${d.organisation} to open it.`,
        d.expiresOn ? `The delivery is available until ${d.expiresOn} (UTC).` : 'The delivery stays available permanently.',
      ],
      action: (d) => ({ label: 'Open the delivery', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.senderName} vous a envoyé un envoi sécurisé : ${d.subject}`,
      paragraphs: (d) => [
        `${d.senderName} (${d.senderEmail}) vous a envoyé par ${d.organisation} un envoi sécurisé avec ${d.fileCount === 1 ? 'un fichier' : `${d.fileCount} fichiers`} : « ${d.subject} ».`,
        opensByLink(d.level)
          ? 'Le lien est personnel : quiconque le possède peut ouvrir l’envoi. Merci de ne pas transférer ce message.'
          : d.signup
            ? `Pour l’ouvrir, confirmez votre adresse e-mail depuis le lien et créez un compte ${d.organisation}.`
            : isE2eLevel(d.level)
              ? `L’envoi est chiffré de bout en bout : connectez-vous à ${d.organisation} et saisissez votre SecuPass pour l’ouvrir.`
            : `Connectez-vous à ${d.organisation} pour l’ouvrir.`,
        d.expiresOn ? `L’envoi est disponible jusqu’au ${d.expiresOn} (UTC).` : 'L’envoi reste disponible en permanence.',
      ],
      action: (d) => ({ label: 'Ouvrir l’envoi', url: d.link }),
    },
  },
  e2eInvitation: {
    de: {
      subject: (d) => `${d.senderName} möchte Ihnen eine verschlüsselte Zustellung senden: ${d.subject}`,
      paragraphs: (d) => [
        `${d.senderName} (${d.senderEmail}) hat Ihnen über ${d.organisation} eine Ende-zu-Ende-verschlüsselte Zustellung gesendet: „${d.subject}“.`,
        d.registered
          ? `Um sie zu öffnen, legen Sie in ${d.organisation} Ihre persönliche SecuPass an.`
          : `Um sie zu öffnen, registrieren Sie sich bei ${d.organisation} und legen Sie Ihre persönliche SecuPass an.`,
        'Danach gibt der Absender die Zustellung für Sie frei; Sie erhalten dann eine weitere E-Mail.',
      ],
      action: (d) => ({ label: `${d.organisation} öffnen`, url: d.link }),
    },
    en: {
      subject: (d) => `${d.senderName} wants to send you an encrypted delivery: ${d.subject}`,
      paragraphs: (d) => [
        `${d.senderName} (${d.senderEmail}) sent you an end-to-end encrypted delivery through ${d.organisation}: "${d.subject}".`,
        d.registered ? `To open it, create your personal SecuPass in ${d.organisation}.` : `To open it, sign up for ${d.organisation} and create your personal SecuPass.`,
        'The sender then releases the delivery for you, and you receive another email.',
      ],
      action: (d) => ({ label: `Open ${d.organisation}`, url: d.link }),
    },
    fr: {
      subject: (d) => `${d.senderName} souhaite vous envoyer un envoi chiffré : ${d.subject}`,
      paragraphs: (d) => [
        `${d.senderName} (${d.senderEmail}) vous a envoyé par ${d.organisation} un envoi chiffré de bout en bout : « ${d.subject} ».`,
        d.registered ? `Pour l’ouvrir, créez votre SecuPass personnelle dans ${d.organisation}.` : `Pour l’ouvrir, inscrivez-vous sur ${d.organisation} et créez votre SecuPass personnelle.`,
        'L’expéditeur libère ensuite l’envoi pour vous et vous recevez un autre e-mail.',
      ],
      action: (d) => ({ label: `Ouvrir ${d.organisation}`, url: d.link }),
    },
  },
  releaseNeeded: {
    de: {
      subject: (d) => `${d.organisation}: Freigabe für ${d.recipient} erforderlich`,
      paragraphs: (d) => [
        `${d.recipient} hat jetzt eine SecuPass und wartet auf Ihre Freigabe der verschlüsselten Zustellung „${d.subject}“.`,
        'Öffnen Sie die Freigabeseite und geben Sie Ihre SecuPass ein.',
      ],
      action: (d) => ({ label: 'Zustellungen freigeben', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: release needed for ${d.recipient}`,
      paragraphs: (d) => [
        `${d.recipient} now has a SecuPass and waits for you to release the encrypted delivery "${d.subject}".`,
        'Open the release page and enter your SecuPass.',
      ],
      action: (d) => ({ label: 'Release deliveries', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : libération requise pour ${d.recipient}`,
      paragraphs: (d) => [
        `${d.recipient} a maintenant une SecuPass et attend que vous libériez l’envoi chiffré « ${d.subject} ».`,
        'Ouvrez la page de libération et saisissez votre SecuPass.',
      ],
      action: (d) => ({ label: 'Libérer les envois', url: d.link }),
    },
  },
  deliveryReleased: {
    de: {
      subject: (d) => `${d.organisation}: ${d.senderName} hat Ihre Zustellung freigegeben: ${d.subject}`,
      paragraphs: (d) => [`${d.senderName} hat die verschlüsselte Zustellung „${d.subject}“ für Ihre SecuPass freigegeben. Sie können sie jetzt öffnen.`],
      action: (d) => ({ label: 'Zustellung öffnen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: ${d.senderName} released your delivery: ${d.subject}`,
      paragraphs: (d) => [`${d.senderName} released the encrypted delivery "${d.subject}" for your SecuPass. You can open it now.`],
      action: (d) => ({ label: 'Open the delivery', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : ${d.senderName} a libéré votre envoi : ${d.subject}`,
      paragraphs: (d) => [`${d.senderName} a libéré l’envoi chiffré « ${d.subject} » pour votre SecuPass. Vous pouvez l’ouvrir maintenant.`],
      action: (d) => ({ label: 'Ouvrir l’envoi', url: d.link }),
    },
  },
  downloadReceipt: {
    de: {
      subject: (d) => `${d.organisation}: ${d.recipient} hat „${d.subject}“ heruntergeladen`,
      paragraphs: (d) => [`${d.recipient} hat die Datei „${d.fileName}“ Ihrer Zustellung „${d.subject}“ heruntergeladen.`],
      action: (d) => ({ label: 'Gesendete Zustellungen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: ${d.recipient} downloaded "${d.subject}"`,
      paragraphs: (d) => [`${d.recipient} downloaded the file "${d.fileName}" of your delivery "${d.subject}".`],
      action: (d) => ({ label: 'Sent deliveries', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : ${d.recipient} a téléchargé « ${d.subject} »`,
      paragraphs: (d) => [`${d.recipient} a téléchargé le fichier « ${d.fileName} » de votre envoi « ${d.subject} ».`],
      action: (d) => ({ label: 'Envois effectués', url: d.link }),
    },
  },
  deliveryBlocked: {
    de: {
      subject: (d) => `${d.organisation}: „${d.subject}“ wurde blockiert`,
      paragraphs: (d) => [
        d.reason === 'virus'
          ? `Der Virenscanner hat in einem Anhang Ihrer Zustellung „${d.subject}“ einen Virus gefunden.`
          : d.reason === 'mimeType'
            ? `Ein Anhang Ihrer Zustellung „${d.subject}“ ist ein gesperrter Dateityp unter anderem Namen.`
            : `Die Anhänge Ihrer Zustellung „${d.subject}“ konnten nicht auf Viren geprüft werden.`,
        'Die Zustellung ist blockiert: Die Empfänger wurden nicht benachrichtigt und können die Anhänge nicht herunterladen.',
      ],
      action: (d) => ({ label: 'Gesendete Zustellungen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: "${d.subject}" was blocked`,
      paragraphs: (d) => [
        d.reason === 'virus'
          ? `The virus scanner found a virus in an attachment of your delivery "${d.subject}".`
          : d.reason === 'mimeType'
            ? `An attachment of your delivery "${d.subject}" is a blocked file type under another name.`
            : `The attachments of your delivery "${d.subject}" could not be checked for viruses.`,
        'The delivery is blocked: the recipients were not notified and cannot download the attachments.',
      ],
      action: (d) => ({ label: 'Sent deliveries', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : « ${d.subject} » a été bloqué`,
      paragraphs: (d) => [
        d.reason === 'virus'
          ? `L’antivirus a trouvé un virus dans une pièce jointe de votre envoi « ${d.subject} ».`
          : d.reason === 'mimeType'
            ? `Une pièce jointe de votre envoi « ${d.subject} » est un type de fichier bloqué sous un autre nom.`
            : `Les pièces jointes de votre envoi « ${d.subject} » n’ont pas pu être analysées.`,
        'L’envoi est bloqué : les destinataires n’ont pas été prévenus et ne peuvent pas télécharger les pièces jointes.',
      ],
      action: (d) => ({ label: 'Envois effectués', url: d.link }),
    },
  },
};
