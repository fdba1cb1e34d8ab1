import type { TemplatesOf } from './template-types';

/** Data rooms (issue 15): the invitation of an address without an account (server/rooms/sharing/invitations.ts). */
export const ROOM_TEMPLATES: TemplatesOf<'roomInvitation'> = {
  roomInvitation: {
    de: {
      subject: (d) => `${d.organisation}: ${d.inviterName} lädt Sie in einen Datenraum ein`,
      paragraphs: (d) => [
        d.roomName === null
          ? `${d.inviterName} hat Sie in einen verschlüsselten Datenraum eingeladen (Rolle ${d.role}).`
          : `${d.inviterName} hat Sie in den Datenraum „${d.roomName}“ eingeladen (Rolle ${d.role}).`,
        `Registrieren Sie sich über den folgenden Link. Er funktioniert einmal und ist ${d.validDays} Tage gültig.`,
      ],
      action: (d) => ({ label: 'Registrierung abschließen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: ${d.inviterName} invites you to a data room`,
      paragraphs: (d) => [
        d.roomName === null
          ? `${d.inviterName} invited you to an encrypted data room (role ${d.role}).`
          : `${d.inviterName} invited you to the data room “${d.roomName}” (role ${d.role}).`,
        `Register through the link below. It works once and is valid for ${d.validDays} days.`,
      ],
      action: (d) => ({ label: 'Complete registration', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : ${d.inviterName} vous invite dans une salle de données`,
      paragraphs: (d) => [
        d.roomName === null
          ? `${d.inviterName} vous a invité dans une salle de données chiffrée (rôle ${d.role}).`
          : `${d.inviterName} vous a invité dans la salle de données « ${d.roomName} » (rôle ${d.role}).`,
        `Inscrivez-vous avec le lien ci-dessous. Il ne fonctionne qu’une fois et reste valable ${d.validDays} jours.`,
      ],
      action: (d) => ({ label: 'Terminer l’inscription', url: d.link }),
    },
  },
};
