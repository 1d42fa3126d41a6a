/**
 * Marks the shell while the focus is inside the compose box, so a narrow screen shows its
 * recipient fields and buttons only then (styles/phone.css). Kept as state rather than CSS
 * `:focus-within`, which a window without the system focus does not match in every browser.
 */
import { useEffect, useState } from 'preact/hooks';

function inCompose(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('.compose') !== null;
}

export function useComposeFocus(): boolean {
  const [composing, setComposing] = useState(false);
  useEffect(() => {
    const focusIn = (event: FocusEvent) => setComposing(inCompose(event.target));
    const focusOut = (event: FocusEvent) => {
      if (!inCompose(event.relatedTarget)) setComposing(false);
    };
    document.addEventListener('focusin', focusIn);
    document.addEventListener('focusout', focusOut);
    return () => {
      document.removeEventListener('focusin', focusIn);
      document.removeEventListener('focusout', focusOut);
    };
  }, []);
  return composing;
}
