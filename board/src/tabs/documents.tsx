import { useEffect } from 'preact/hooks';
import { LetterheadsCard } from './documents/letterheads.tsx';
import { linkDocumentsLive } from './documents/state.ts';
import { UploadsCard } from './documents/uploads.tsx';
import './documents/documents.css';
import { showsLetterheads, showsUploads } from './shown.ts';

/**
 * Dokumente: the guild's letterheads (with their previews, rendered by the server) and the images
 * they use. Both lists follow their topics (`letterheads`, `uploads`) while the tab is open.
 */
export function DocumentsTab() {
  const letterheadsShown = showsLetterheads();
  const uploadsShown = showsUploads();
  useEffect(() => linkDocumentsLive(uploadsShown, letterheadsShown), [uploadsShown, letterheadsShown]);
  return (
    <div class={letterheadsShown && uploadsShown ? 'grid documents' : 'grid documents single'}>
      {letterheadsShown && <LetterheadsCard />}
      {uploadsShown && <UploadsCard />}
    </div>
  );
}
