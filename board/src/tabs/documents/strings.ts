import { texts } from '../../app/i18n.ts';

/** Dokumente: uploads and letterheads, German and English. */
export const docText = texts({
  uploads: {
    title: 'Bilder', intro: 'Logos und Bilder für Briefköpfe und das Wachen-Symbol. PNG, JPEG, WebP oder GIF, höchstens 5 MB.',
    drop: 'Bild hierher ziehen oder', pick: 'Datei auswählen', uploading: (name: string) => `„${name}“ wird hochgeladen …`,
    uploaded: (name: string) => `„${name}“ hochgeladen.`, deleted: (name: string) => `„${name}“ gelöscht.`,
    tooLarge: 'Die Datei ist zu groß: höchstens 5 MB.', wrongType: 'Dieser Dateityp geht nicht: nur PNG, JPEG, WebP oder GIF (kein SVG).',
    empty: 'Die Datei ist leer.', failed: 'Das Hochladen ist fehlgeschlagen. Prüfe die Verbindung und versuch es noch einmal.',
    none: 'Noch keine Bilder.', loading: 'Lädt …', name: 'Name', size: 'Größe', dims: 'Abmessungen', added: 'Hochgeladen', preview: 'Vorschau',
    delete: 'Löschen', image: (name: string) => `Bild „${name}“`,
    logosCleared: (n: number) => (n === 1 ? 'Ein Briefkopf hat nun kein Logo mehr.' : `${n} Briefköpfe haben nun kein Logo mehr.`), progress: 'Fortschritt',
  },
  letterheads: {
    title: 'Briefköpfe', intro: 'Unter diesen Briefköpfen werden Dokumente gedruckt. Die Reihenfolge hier ist die Reihenfolge der Auswahl.',
    none: 'Noch keine Briefköpfe.', loading: 'Lädt …', add: 'Neuer Briefkopf', edit: 'Bearbeiten', delete: 'Löschen',
    up: 'Nach oben', down: 'Nach unten', moveUp: (n: string) => `${n} nach oben`, moveDown: (n: string) => `${n} nach unten`,
    moved: (n: string) => `„${n}“ verschoben.`, dragHint: 'Ziehen oder mit den Pfeil-Knöpfen ordnen.',
    name: 'Name', organisation: 'Organisation', address: 'Anschrift (eine Zeile je Zeile)', logo: 'Logo', noLogo: 'Ohne Logo', currentLogo: 'Bisheriges Logo',
    primary: 'Hauptfarbe', secondary: 'Zweitfarbe', footer: 'Fußzeile', save: 'Speichern', create: 'Anlegen', cancel: 'Abbrechen',
    created: (n: string) => `Briefkopf „${n}“ angelegt.`, saved: (n: string) => `Briefkopf „${n}“ gespeichert.`, deleted: (n: string) => `Briefkopf „${n}“ gelöscht.`,
    conflict: 'Jemand anderes hat diesen Briefkopf inzwischen geändert. Der aktuelle Stand ist geladen – bitte die Änderung noch einmal eintragen.',
    gone: 'Dieser Briefkopf wurde inzwischen gelöscht.', nameTaken: (n: string) => `Es gibt schon einen Briefkopf „${n}“. Wähle einen anderen Namen.`, preview: (n: string) => `Vorschau des Briefkopfs „${n}“`,
    editing: (n: string) => `Briefkopf „${n}“ bearbeiten`, newTitle: 'Neuer Briefkopf', of: (n: string) => `Briefkopf „${n}“`,
    version: (v: number) => `Version ${v}`,
  },
}, {
  uploads: {
    title: 'Images', intro: 'Logos and pictures for letterheads and the station icon. PNG, JPEG, WebP or GIF, at most 5 MB.',
    drop: 'Drop an image here or', pick: 'choose a file', uploading: (name: string) => `Uploading “${name}” …`,
    uploaded: (name: string) => `“${name}” uploaded.`, deleted: (name: string) => `“${name}” deleted.`,
    tooLarge: 'The file is too large: at most 5 MB.', wrongType: 'This file type is not accepted: only PNG, JPEG, WebP or GIF (no SVG).',
    empty: 'The file is empty.', failed: 'The upload failed. Check the connection and try again.',
    none: 'No images yet.', loading: 'Loading …', name: 'Name', size: 'Size', dims: 'Dimensions', added: 'Uploaded', preview: 'Preview',
    delete: 'Delete', image: (name: string) => `image “${name}”`,
    logosCleared: (n: number) => (n === 1 ? 'One letterhead now has no logo.' : `${n} letterheads now have no logo.`), progress: 'Progress',
  },
  letterheads: {
    title: 'Letterheads', intro: 'Documents are printed under these letterheads. The order here is the order they are offered in.',
    none: 'No letterheads yet.', loading: 'Loading …', add: 'New letterhead', edit: 'Edit', delete: 'Delete',
    up: 'Move up', down: 'Move down', moveUp: (n: string) => `Move ${n} up`, moveDown: (n: string) => `Move ${n} down`,
    moved: (n: string) => `“${n}” moved.`, dragHint: 'Drag, or order them with the arrow buttons.',
    name: 'Name', organisation: 'Organisation', address: 'Address (one line per line)', logo: 'Logo', noLogo: 'No logo', currentLogo: 'Current logo',
    primary: 'Main colour', secondary: 'Second colour', footer: 'Footer', save: 'Save', create: 'Create', cancel: 'Cancel',
    created: (n: string) => `Letterhead “${n}” created.`, saved: (n: string) => `Letterhead “${n}” saved.`, deleted: (n: string) => `Letterhead “${n}” deleted.`,
    conflict: 'Someone else changed this letterhead meanwhile. The current version is loaded – please enter your change again.',
    gone: 'This letterhead was deleted meanwhile.', nameTaken: (n: string) => `There is a letterhead “${n}” already. Choose another name.`, preview: (n: string) => `Preview of letterhead “${n}”`,
    editing: (n: string) => `Edit letterhead “${n}”`, newTitle: 'New letterhead', of: (n: string) => `letterhead “${n}”`,
    version: (v: number) => `version ${v}`,
  },
});
