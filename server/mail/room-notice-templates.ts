import type { TemplatesOf } from './template-types';

/**
 * Data-room notices to registered people (issue 32, server/rooms/sharing/room-notices.ts): added to a
 * room, a member waits for a Secure-room key, the key was granted. `roomName` null: a Secure room,
 * whose name is sealed — the mail says "a Secure room" and links to it.
 */
export const ROOM_NOTICE_TEMPLATES: TemplatesOf<'roomAdded' | 'roomKeyWaiting' | 'roomKeyGranted'> = {
  roomAdded: {
    de: {
      subject: (d) => `${d.organisation}: ${d.actorName} hat Ihnen einen Datenraum freigegeben`,
      paragraphs: (d) => [
        d.roomName === null
          ? `${d.actorName} hat Ihnen Zugriff auf einen sicheren Raum gegeben (Rolle ${d.role}).`
          : `${d.actorName} hat Ihnen Zugriff auf den Datenraum „${d.roomName}“ gegeben (Rolle ${d.role}).`,
        'Melden Sie sich an, um ihn zu öffnen.',
      ],
      action: (d) => ({ label: 'Datenraum öffnen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: ${d.actorName} shared a data room with you`,
      paragraphs: (d) => [
        d.roomName === null
          ? `${d.actorName} gave you access to a Secure room (role ${d.role}).`
          : `${d.actorName} gave you access to the data room “${d.roomName}” (role ${d.role}).`,
        'Sign in to open it.',
      ],
      action: (d) => ({ label: 'Open the data room', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : ${d.actorName} a partagé une salle de données avec vous`,
      paragraphs: (d) => [
        d.roomName === null
          ? `${d.actorName} vous a donné accès à un espace sécurisé (rôle ${d.role}).`
          : `${d.actorName} vous a donné accès à la salle de données « ${d.roomName} » (rôle ${d.role}).`,
        'Connectez-vous pour l’ouvrir.',
      ],
      action: (d) => ({ label: 'Ouvrir la salle de données', url: d.link }),
    },
  },
  roomKeyWaiting: {
    de: {
      subject: (d) => `${d.organisation}: ${d.memberName} wartet auf den Zugriff auf einen sicheren Raum`,
      paragraphs: (d) => [
        `${d.memberName} (${d.memberEmail}) hat die Ende-zu-Ende-Verschlüsselung aktiviert und wartet darauf, dass ein Eigentümer den Zugriff auf die Dateien eines sicheren Raums freigibt.`,
        'Öffnen Sie den Raum und geben Sie den Zugriff unter „Teilen“ frei.',
      ],
      action: (d) => ({ label: 'Sicheren Raum öffnen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: ${d.memberName} is waiting for access to a Secure room`,
      paragraphs: (d) => [
        `${d.memberName} (${d.memberEmail}) activated end-to-end encryption and is waiting for an owner to grant access to the files of a Secure room.`,
        'Open the room and grant the access under “Share”.',
      ],
      action: (d) => ({ label: 'Open the Secure room', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : ${d.memberName} attend l’accès à un espace sécurisé`,
      paragraphs: (d) => [
        `${d.memberName} (${d.memberEmail}) a activé le chiffrement de bout en bout et attend qu’un propriétaire lui donne accès aux fichiers d’un espace sécurisé.`,
        'Ouvrez l’espace et accordez l’accès sous « Partager ».',
      ],
      action: (d) => ({ label: 'Ouvrir l’espace sécurisé', url: d.link }),
    },
  },
  roomKeyGranted: {
    de: {
      subject: (d) => `${d.organisation}: Ihr Zugriff auf einen sicheren Raum wurde freigegeben`,
      paragraphs: (d) => [`${d.actorName} hat Ihnen den Zugriff auf die Dateien eines sicheren Raums freigegeben. Entsperren Sie ihn mit Ihrer Passphrase.`],
      action: (d) => ({ label: 'Sicheren Raum öffnen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: your access to a Secure room was granted`,
      paragraphs: (d) => [`${d.actorName} granted you access to the files of a Secure room. Unlock it with your passphrase.`],
      action: (d) => ({ label: 'Open the Secure room', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : votre accès à un espace sécurisé a été accordé`,
      paragraphs: (d) => [`${d.actorName} vous a donné accès aux fichiers d’un espace sécurisé. Déverrouillez-le avec votre phrase secrète.`],
      action: (d) => ({ label: 'Ouvrir l’espace sécurisé', url: d.link }),
    },
  },
};
