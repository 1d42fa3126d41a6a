/**
 * Inline images open in a viewer over the page (Escape or Close ends it), with a link to the
 * original file, instead of the browser leaving the app for the raw file.
 */
import { useEffect, useState } from 'preact/hooks';
import { Modal } from './panels/ui';

export interface ViewedImage {
  src: string;
  original: string;
  name: string;
}

let show: ((image: ViewedImage) => void) | null = null;

export function openImage(image: ViewedImage): void {
  show?.(image);
}

/** The preview's link around its image: the full-size image (`data-src-fullsize` when thumbnailed) and the original. */
export function imageOfPreview(link: HTMLAnchorElement): ViewedImage | null {
  const image = link.querySelector('img');
  const original = link.getAttribute('href');
  if (!image || !original) return null;
  const name = link.title || original.split('/').pop() || 'Image';
  return { src: image.dataset['srcFullsize'] ?? original, original, name };
}

export function ImageViewer() {
  const [image, setImage] = useState<ViewedImage | null>(null);
  useEffect(() => {
    show = setImage;
    return () => {
      show = null;
    };
  }, []);
  if (!image) return null;
  return (
    <Modal title="Image" onClose={() => setImage(null)} class="image-viewer">
      <img class="viewed-image" src={image.src} alt={image.name} />
      <p>
        <a href={image.original} target="_blank" rel="noopener noreferrer">
          Open original
        </a>
      </p>
    </Modal>
  );
}
