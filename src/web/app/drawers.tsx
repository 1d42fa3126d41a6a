/**
 * On a narrow screen the left column and the people list are drawers over the view: a button
 * opens each, and Escape, a click outside, or choosing a view closes it (styles/phone.css).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { sameNarrow, type Narrow } from '../state/narrow';

export type DrawerName = 'views' | 'people';

export interface Drawers {
  open: DrawerName | null;
  show: (name: DrawerName) => void;
  close: () => void;
}

const DRAWER_SELECTOR: Record<DrawerName, string> = { views: '.left-column', people: '.right-column' };

export function useDrawers(narrow: Narrow): Drawers {
  const [open, setOpen] = useState<DrawerName | null>(null);
  const shownNarrow = useRef(narrow);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (sameNarrow(shownNarrow.current, narrow)) return;
    shownNarrow.current = narrow;
    setOpen(null);
  }, [narrow]);

  useEffect(() => {
    if (open === null) {
      if (opener.current?.isConnected) opener.current.focus();
      opener.current = null;
      return;
    }
    const drawer = document.querySelector<HTMLElement>(DRAWER_SELECTOR[open]);
    drawer?.querySelector<HTMLElement>('input, a[href], button')?.focus();
    // A link chosen in the drawer closes it, also when it is the view already shown.
    const chosen = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest(`${DRAWER_SELECTOR[open]} a[href]`)) setOpen(null);
    };
    drawer?.addEventListener('click', chosen);
    return () => drawer?.removeEventListener('click', chosen);
  }, [open]);

  return {
    open,
    show: (name) => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setOpen(name);
    },
    close: () => setOpen(null),
  };
}

/** The buttons that open the drawers; hidden where the columns fit beside the view. */
export function DrawerButton({ drawers, name }: { drawers: Drawers; name: DrawerName }) {
  const label = name === 'views' ? 'Menu' : 'People';
  return (
    <button
      type="button"
      class={`drawer-button drawer-button-${name}`}
      aria-expanded={drawers.open === name ? 'true' : 'false'}
      onClick={() => (drawers.open === name ? drawers.close() : drawers.show(name))}
    >
      {name === 'views' && <span aria-hidden="true">☰ </span>}
      {label}
    </button>
  );
}

/** The dimmed page behind an open drawer: a click on it closes the drawer. */
export function DrawerBackdrop({ drawers }: { drawers: Drawers }) {
  if (drawers.open === null) return null;
  return <div class="drawer-backdrop" aria-hidden="true" onClick={drawers.close} />;
}
