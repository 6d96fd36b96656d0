import { can, moduleOn } from '../app/session.ts';

// Who sees which tab, apart from the tabs' code: the tab strip needs these at once, the tabs
// themselves load on first use (registry.ts).

/** Letterheads: the documents module and the right to see them. */
export const showsLetterheads = () => moduleOn('documents') && can('documents.letterhead.view');
/** Images: the uploads module and settings.manage (GET /uploads needs it). */
export const showsUploads = () => moduleOn('uploads') && can('settings.manage');
/** The Medic tab: module medic on and the right to read patient files. */
export const showsMedic = () => moduleOn('medic') && can('medic.files.view');
