import type { TemplatesOf } from './template-types';

/** Mails about the account itself: address check, password reset, invitation, sign-up of a taken address, password change, sign-in attempts, SecuPass reset. */
export const ACCOUNT_TEMPLATES: TemplatesOf<'accountVerificationCode' | 'passwordResetLink' | 'userInvitation' | 'signupExistingAccount' | 'passwordChanged' | 'signInAttempts' | 'secupassReset'> = {
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
};
