import { useEffect, useRef, useState } from 'preact/hooks';
import { when } from '../../app/i18n.ts';
import { ms, type Image } from './types.ts';
import { medicText } from './words.ts';

/** The enlarged image in a modal <dialog> (Escape and the button close it; focus returns to the thumbnail). */
function Enlarged({ img, onClose }: { img: Image; onClose: () => void }) {
  const t = medicText();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const title = t.imageOf(t.modality[img.modality] ?? img.modality, t.bodyPart[img.bodyPart] ?? img.bodyPart);
  return (
    <dialog ref={ref} class="image-dialog" id="medic-image-dialog" aria-label={title} onClose={onClose}
      onClick={(e) => { if (e.target === ref.current) ref.current?.close(); }}>
      <div class="image-dialog-head">
        <strong>{title}</strong><span class="muted">{when(ms(img.at))}</span>
        <button type="button" class="small" id="medic-image-close" onClick={() => ref.current?.close()}>{t.closeImage}</button>
      </div>
      <img src={img.url} alt={title} id="medic-image-large" />
      {img.finding && <p class="finding">{img.finding}</p>}
    </dialog>
  );
}

/** X-ray and CT images of the file as thumbnails (the server's image URL, with ?guild=); a click enlarges. */
export function Images({ list }: { list: Image[] }) {
  const t = medicText();
  const [open, setOpen] = useState<Image | null>(null);
  if (!list.length) return <p class="muted" id="images-none">{t.noImages}</p>;
  return (
    <>
      <ul class="medic-images" id="medic-images">
        {[...list].sort((a, b) => ms(b.at) - ms(a.at)).map((img) => {
          const title = t.imageOf(t.modality[img.modality] ?? img.modality, t.bodyPart[img.bodyPart] ?? img.bodyPart);
          return (
            <li data-image={img.id}>
              <button type="button" class="thumb-button" aria-label={`${title} – ${t.enlarge}`} onClick={() => setOpen(img)}>
                <img src={img.url} alt={title} loading="lazy" width={img.width ?? undefined} height={img.height ?? undefined} />
              </button>
              <span class="img-meta"><strong>{title}</strong><span class="muted">{when(ms(img.at))}</span></span>
              {img.finding && <span class="img-finding">{img.finding}</span>}
            </li>
          );
        })}
      </ul>
      {open && <Enlarged img={open} onClose={() => setOpen(null)} />}
    </>
  );
}
