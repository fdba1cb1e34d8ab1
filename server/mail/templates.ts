import type { Language } from '@shared/contract/constants';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { isE2eLevel, opensByLink } from '@shared/contract/security-levels';

/**
 * Mail templates: one typed entry per kind, each with a subject, a plain-text body and
 * an HTML body in de/en/fr. Data values are escaped for the HTML part by `renderMail`,
 * so templates here only ever interpolate through the `v` helper they are given.
 */

/** Data each template needs. Add a template by adding a key here and in `MAIL_TEMPLATES`. */
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
}
export type MailTemplateName = keyof MailTemplateData;

/** What every mail knows besides its own data. */
export interface MailContext {
  /** The organisation name from System settings (`kuvert.organisation.name`): named in every mail and its signature. */
  organisation: string;
}

interface LocalizedTemplate<D> {
  subject: (d: D & MailContext) => string;
  /** Paragraphs of the body; each is rendered as text and as an escaped HTML paragraph. */
  paragraphs: (d: D & MailContext) => string[];
  /** Optional call-to-action link, shown as a button in HTML and as a bare URL in text. */
  action?: (d: D & MailContext) => { label: string; url: string };
}

type TemplateTable = {
  [K in MailTemplateName]: Record<Language, LocalizedTemplate<MailTemplateData[K]>>;
};

export const MAIL_TEMPLATES: TemplateTable = {
  accountVerificationCode: {
    de: {
      subject: (d) => `Ihr Bestätigungscode für ${d.organisation}`,
      paragraphs: (d) => [
        'Bitte bestätigen Sie Ihre E-Mail-Adresse mit diesem Code:',
        d.code,
        `Der Code ist ${d.validMinutes} Minuten gültig. Wenn Sie sich nicht angemeldet haben, können Sie diese Nachricht ignorieren.`,
      ],
    },
    en: {
      subject: (d) => `Your ${d.organisation} verification code`,
      paragraphs: (d) => [
        'Please confirm your email address with this code:',
        d.code,
        `The code is valid for ${d.validMinutes} minutes. If you did not try to sign in, you can ignore this message.`,
      ],
    },
    fr: {
      subject: (d) => `Votre code de vérification ${d.organisation}`,
      paragraphs: (d) => [
        'Veuillez confirmer votre adresse e-mail avec ce code :',
        d.code,
        `Le code est valable ${d.validMinutes} minutes. Si vous n’avez pas essayé de vous connecter, ignorez ce message.`,
      ],
    },
  },
  passwordResetLink: {
    de: {
      subject: (d) => `${d.organisation}: Passwort zurücksetzen`,
      paragraphs: (d) => [
        'Sie haben angefordert, Ihr Passwort zurückzusetzen. Über den folgenden Link können Sie ein neues Passwort festlegen.',
        `Der Link ist ${d.validMinutes} Minuten gültig und kann nur einmal verwendet werden. Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht; Ihr Passwort bleibt unverändert.`,
      ],
      action: (d) => ({ label: 'Neues Passwort festlegen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: reset your password`,
      paragraphs: (d) => [
        'You asked to reset your password. Use the link below to choose a new password.',
        `The link is valid for ${d.validMinutes} minutes and works once. If you did not ask for this, ignore this message; your password stays unchanged.`,
      ],
      action: (d) => ({ label: 'Choose a new password', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : réinitialiser votre mot de passe`,
      paragraphs: (d) => [
        'Vous avez demandé la réinitialisation de votre mot de passe. Utilisez le lien ci-dessous pour en choisir un nouveau.',
        `Le lien est valable ${d.validMinutes} minutes et ne fonctionne qu’une fois. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message ; votre mot de passe reste inchangé.`,
      ],
      action: (d) => ({ label: 'Choisir un nouveau mot de passe', url: d.link }),
    },
  },
  userInvitation: {
    de: {
      subject: (d) => `Einladung zu ${d.organisation}`,
      paragraphs: (d) => [
        `${d.inviterName} hat für Sie ein Konto bei ${d.organisation} angelegt. Über den folgenden Link legen Sie Ihr Passwort fest und bestätigen damit Ihre E-Mail-Adresse.`,
        `Der Link ist ${d.validDays} Tage gültig und kann nur einmal verwendet werden. Danach melden Sie sich mit Ihrer E-Mail-Adresse und dem neuen Passwort an.`,
      ],
      action: (d) => ({ label: 'Passwort festlegen', url: d.link }),
    },
    en: {
      subject: (d) => `Your invitation to ${d.organisation}`,
      paragraphs: (d) => [
        `${d.inviterName} created an account for you at ${d.organisation}. Use the link below to choose your password; this also confirms your email address.`,
        `The link is valid for ${d.validDays} days and works once. Afterwards, sign in with your email address and the new password.`,
      ],
      action: (d) => ({ label: 'Choose your password', url: d.link }),
    },
    fr: {
      subject: (d) => `Votre invitation à ${d.organisation}`,
      paragraphs: (d) => [
        `${d.inviterName} a créé un compte pour vous chez ${d.organisation}. Utilisez le lien ci-dessous pour choisir votre mot de passe ; cela confirme aussi votre adresse e-mail.`,
        `Le lien est valable ${d.validDays} jours et ne fonctionne qu’une fois. Ensuite, connectez-vous avec votre adresse e-mail et le nouveau mot de passe.`,
      ],
      action: (d) => ({ label: 'Choisir votre mot de passe', url: d.link }),
    },
  },
  signupExistingAccount: {
    de: {
      subject: (d) => `${d.organisation}: Sie haben bereits ein Konto`,
      paragraphs: (d) => [
        `Jemand hat versucht, sich mit Ihrer E-Mail-Adresse bei ${d.organisation} zu registrieren. Für diese Adresse gibt es bereits ein Konto; es wurde nichts geändert.`,
        `Waren Sie das, melden Sie sich einfach an: ${d.loginLink}. Passwort vergessen? Setzen Sie es hier zurück: ${d.resetLink}. Andernfalls können Sie diese Nachricht ignorieren.`,
      ],
    },
    en: {
      subject: (d) => `${d.organisation}: you already have an account`,
      paragraphs: (d) => [
        `Someone tried to sign up at ${d.organisation} with your email address. An account with this address exists already; nothing was changed.`,
        `If it was you, just sign in: ${d.loginLink}. Forgot your password? Reset it here: ${d.resetLink}. Otherwise you can ignore this message.`,
      ],
    },
    fr: {
      subject: (d) => `${d.organisation} : vous avez déjà un compte`,
      paragraphs: (d) => [
        `Quelqu’un a essayé de s’inscrire chez ${d.organisation} avec votre adresse e-mail. Un compte existe déjà pour cette adresse ; rien n’a été modifié.`,
        `Si c’était vous, connectez-vous simplement : ${d.loginLink}. Mot de passe oublié ? Réinitialisez-le ici : ${d.resetLink}. Sinon, ignorez ce message.`,
      ],
    },
  },
  passwordChanged: {
    de: {
      subject: (d) => `${d.organisation}: Ihr Passwort wurde geändert`,
      paragraphs: (d) => [
        `Das Passwort Ihres Kontos bei ${d.organisation} wurde am ${d.changedAt} (UTC) geändert.`,
        'Wenn Sie das nicht waren, setzen Sie Ihr Passwort sofort zurück und informieren Sie Ihre Administration.',
      ],
    },
    en: {
      subject: (d) => `${d.organisation}: your password was changed`,
      paragraphs: (d) => [
        `The password of your ${d.organisation} account was changed on ${d.changedAt} (UTC).`,
        'If this was not you, reset your password right away and tell your administrator.',
      ],
    },
    fr: {
      subject: (d) => `${d.organisation} : votre mot de passe a été modifié`,
      paragraphs: (d) => [
        `Le mot de passe de votre compte ${d.organisation} a été modifié le ${d.changedAt} (UTC).`,
        'Si ce n’était pas vous, réinitialisez immédiatement votre mot de passe et prévenez votre administrateur.',
      ],
    },
  },
  signInAttempts: {
    de: {
      subject: (d) => `${d.organisation}: wiederholte fehlgeschlagene Anmeldeversuche`,
      paragraphs: (d) => [
        `Bei Ihrem Konto bei ${d.organisation} sind ${d.failures} Anmeldeversuche mit falschem Passwort oder Code gescheitert, zuletzt am ${d.at} (UTC) von der Adresse ${d.address}.`,
        'Weitere Versuche werden deshalb schrittweise verzögert. Ihr Passwort wurde nicht geändert und niemand hat sich angemeldet.',
        'Wenn Sie das nicht waren, versucht möglicherweise jemand, Ihr Passwort zu erraten: Wählen Sie ein starkes Passwort, richten Sie eine Authentifizierungs-App ein und informieren Sie Ihre Administration.',
      ],
    },
    en: {
      subject: (d) => `${d.organisation}: repeated failed sign-ins`,
      paragraphs: (d) => [
        `${d.failures} sign-ins to your ${d.organisation} account failed with a wrong password or code, the last on ${d.at} (UTC) from the address ${d.address}.`,
        'Further tries are therefore delayed step by step. Your password was not changed and nobody signed in.',
        'If this was not you, someone may be trying to guess your password: choose a strong password, set up an authentication app and tell your administrator.',
      ],
    },
    fr: {
      subject: (d) => `${d.organisation} : échecs de connexion répétés`,
      paragraphs: (d) => [
        `${d.failures} tentatives de connexion à votre compte ${d.organisation} ont échoué avec un mot de passe ou un code erroné, la dernière le ${d.at} (UTC) depuis l’adresse ${d.address}.`,
        'Les tentatives suivantes sont donc retardées progressivement. Votre mot de passe n’a pas été modifié et personne ne s’est connecté.',
        'Si ce n’était pas vous, quelqu’un essaie peut-être de deviner votre mot de passe : choisissez un mot de passe robuste, configurez une application d’authentification et prévenez votre administrateur.',
      ],
    },
  },
  secupassReset: {
    de: {
      subject: (d) => `${d.organisation}: Ihre SecuPass wurde zurückgesetzt`,
      paragraphs: (d) => [
        `Ihre Administration hat am ${d.resetAt} (UTC) Ihre SecuPass (Ihre persönliche Passphrase) zurückgesetzt.`,
        'Verschlüsselte Dateien, die für Ihre bisherige SecuPass bestimmt waren, können Sie nicht mehr öffnen. Bitten Sie die Absender, sie erneut für Sie freizugeben.',
        'Melden Sie sich an und legen Sie eine neue SecuPass fest. Wenn Sie das nicht erwartet haben, wenden Sie sich an Ihre Administration.',
      ],
      action: (d) => ({ label: 'Neue SecuPass festlegen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: your SecuPass was reset`,
      paragraphs: (d) => [
        `Your administrator reset your SecuPass (your personal passphrase) on ${d.resetAt} (UTC).`,
        'Encrypted files meant for your previous SecuPass can no longer be opened. Ask the senders to release them to you again.',
        'Sign in and set a new SecuPass. If you did not expect this, contact your administrator.',
      ],
      action: (d) => ({ label: 'Set a new SecuPass', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : votre SecuPass a été réinitialisée`,
      paragraphs: (d) => [
        `Votre administrateur a réinitialisé votre SecuPass (votre phrase secrète personnelle) le ${d.resetAt} (UTC).`,
        'Les fichiers chiffrés destinés à votre ancienne SecuPass ne peuvent plus être ouverts. Demandez aux expéditeurs de vous les transmettre à nouveau.',
        'Connectez-vous et définissez une nouvelle SecuPass. Si vous ne vous y attendiez pas, contactez votre administrateur.',
      ],
      action: (d) => ({ label: 'Définir une nouvelle SecuPass', url: d.link }),
    },
  },
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

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** What a level-4 delivery shows where a subject would be: the real subject is end-to-end encrypted (server/README.md). */
export const ENCRYPTED_SUBJECT_PLACEHOLDER: Record<Language, string> = {
  de: 'Verschlüsselte Nachricht',
  en: 'Encrypted message',
  fr: 'Message chiffré',
};

/** The product's own name: the organisation name while none is set. */
export const DEFAULT_ORGANISATION = 'Kuvert';

/**
 * Renders one template in one language for an organisation (its name in the texts and the
 * signature). Every interpolated value, the organisation name included, is escaped in the HTML part.
 */
export function renderMail<K extends MailTemplateName>(
  template: K,
  language: Language,
  data: MailTemplateData[K],
  organisation: string = DEFAULT_ORGANISATION,
): RenderedMail {
  const localized = MAIL_TEMPLATES[template][language] as LocalizedTemplate<MailTemplateData[K]>;
  const context = { ...data, organisation: organisation.trim() || DEFAULT_ORGANISATION };
  const subject = localized.subject(context);
  const paragraphs = localized.paragraphs(context);
  const action = localized.action?.(context);

  const textParts = [...paragraphs];
  if (action) textParts.splice(1, 0, `${action.label}: ${action.url}`);
  const text = `${textParts.join('\n\n')}\n\n-- \n${context.organisation}\n`;

  const htmlParagraphs = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (action) {
    const url = escapeHtml(action.url);
    htmlParagraphs.splice(
      1,
      0,
      `<p><a href="${url}" style="display:inline-block;padding:10px 16px;background:#19853F;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(action.label)}</a></p>`,
      `<p style="font-size:12px;color:#555555">${url}</p>`,
    );
  }
  const html =
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="font-family:Segoe UI,Arial,sans-serif;color:#222222">${htmlParagraphs.join('')}` +
    `<p style="color:#777777">${escapeHtml(context.organisation)}</p></body></html>`;
  return { subject, text, html };
}
