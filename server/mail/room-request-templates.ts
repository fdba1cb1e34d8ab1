import type { TemplatesOf } from './template-types';

/**
 * Data-room requests (issue 15 §2, server/rooms/requests/requests.ts): the request to the address, and the
 * requester's notices: the files are in the folder, or they could not be placed (requests-copy.ts).
 */
const place = (d: { roomName: string; folderName: string | null }) => (d.folderName ? `${d.roomName} / ${d.folderName}` : d.roomName);

export const ROOM_REQUEST_TEMPLATES: TemplatesOf<'roomRequest' | 'roomRequestAnswered' | 'roomRequestNotPlaced'> = {
  roomRequest: {
    de: {
      subject: (d) => `${d.organisation}: ${d.requesterName} bittet Sie um Dateien`,
      paragraphs: (d) => [
        `${d.requesterName} (${d.requesterEmail}) bittet Sie, Dateien für den Datenraum „${place(d)}“ zu senden.`,
        ...(d.message ? [d.message] : []),
        d.signup ? 'Registrieren Sie sich zuerst über den Link; danach senden Sie die Dateien.' : 'Melden Sie sich an und senden Sie die Dateien über den Link.',
        `Der Link gilt bis ${d.expiresOn} und nur für eine Sendung.`,
      ],
      action: (d) => ({ label: 'Dateien senden', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: ${d.requesterName} asks you for files`,
      paragraphs: (d) => [
        `${d.requesterName} (${d.requesterEmail}) asks you to send files for the data room "${place(d)}".`,
        ...(d.message ? [d.message] : []),
        d.signup ? 'Sign up through the link first; then send the files.' : 'Sign in and send the files through the link.',
        `The link holds until ${d.expiresOn} and for one delivery only.`,
      ],
      action: (d) => ({ label: 'Send files', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : ${d.requesterName} vous demande des fichiers`,
      paragraphs: (d) => [
        `${d.requesterName} (${d.requesterEmail}) vous demande d’envoyer des fichiers pour la data room « ${place(d)} ».`,
        ...(d.message ? [d.message] : []),
        d.signup ? 'Inscrivez-vous d’abord par le lien, puis envoyez les fichiers.' : 'Connectez-vous et envoyez les fichiers par le lien.',
        `Le lien est valable jusqu’au ${d.expiresOn} et pour un seul envoi.`,
      ],
      action: (d) => ({ label: 'Envoyer des fichiers', url: d.link }),
    },
  },
  roomRequestAnswered: {
    de: {
      subject: (d) => `${d.organisation}: ${d.senderEmail} hat die angeforderten Dateien gesendet`,
      paragraphs: (d) => [`${d.senderEmail} hat ${d.fileCount} Datei(en) gesendet. Sie liegen jetzt im Datenraum „${place(d)}“.`],
      action: (d) => ({ label: 'Ordner öffnen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: ${d.senderEmail} sent the files you requested`,
      paragraphs: (d) => [`${d.senderEmail} sent ${d.fileCount} file(s). They are now in the data room "${place(d)}".`],
      action: (d) => ({ label: 'Open the folder', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : ${d.senderEmail} a envoyé les fichiers demandés`,
      paragraphs: (d) => [`${d.senderEmail} a envoyé ${d.fileCount} fichier(s). Ils sont maintenant dans la data room « ${place(d)} ».`],
      action: (d) => ({ label: 'Ouvrir le dossier', url: d.link }),
    },
  },
  roomRequestNotPlaced: {
    de: {
      subject: (d) => `${d.organisation}: Die Dateien von ${d.senderEmail} konnten nicht im Datenraum abgelegt werden`,
      paragraphs: (d) => [
        `${d.senderEmail} hat Ihnen die angeforderten ${d.fileCount} Datei(en) für den Datenraum „${place(d)}“ gesendet. Sie konnten dort nicht abgelegt werden: Der Datenraum oder der Ordner wurde gelöscht, oder es war kein Speicherplatz frei.`,
        ...(d.placed > 0 ? [`${d.placed} von ${d.fileCount} Datei(en) liegen im Datenraum, die übrigen nicht.`] : []),
        'Die Sendung selbst hat Sie erreicht: Öffnen Sie sie, um die Dateien herunterzuladen.',
      ],
      action: (d) => ({ label: 'Sendung öffnen', url: d.link }),
    },
    en: {
      subject: (d) => `${d.organisation}: The files from ${d.senderEmail} could not be placed in the data room`,
      paragraphs: (d) => [
        `${d.senderEmail} sent you the ${d.fileCount} requested file(s) for the data room "${place(d)}". They could not be placed there: the data room or the folder was deleted, or there was no space left.`,
        ...(d.placed > 0 ? [`${d.placed} of ${d.fileCount} file(s) are in the data room, the others are not.`] : []),
        'The delivery itself reached you: open it to download the files.',
      ],
      action: (d) => ({ label: 'Open the delivery', url: d.link }),
    },
    fr: {
      subject: (d) => `${d.organisation} : les fichiers de ${d.senderEmail} n’ont pas pu être placés dans la data room`,
      paragraphs: (d) => [
        `${d.senderEmail} vous a envoyé les ${d.fileCount} fichier(s) demandé(s) pour la data room « ${place(d)} ». Ils n’ont pas pu y être placés : la data room ou le dossier a été supprimé, ou l’espace de stockage était plein.`,
        ...(d.placed > 0 ? [`${d.placed} fichier(s) sur ${d.fileCount} se trouvent dans la data room, les autres non.`] : []),
        'L’envoi lui-même vous est parvenu : ouvrez-le pour télécharger les fichiers.',
      ],
      action: (d) => ({ label: 'Ouvrir l’envoi', url: d.link }),
    },
  },
};
