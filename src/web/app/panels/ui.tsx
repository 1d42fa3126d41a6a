/** Pieces every panel uses: a modal dialog, the alert that shows an API error, and the hook that runs a request. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../common/api';

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export interface Action {
  busy: boolean;
  error: string;
  /** Runs a request; its error shows in the panel's alert. Resolves to whether it succeeded. */
  run: (request: () => Promise<unknown>) => Promise<boolean>;
  clear: () => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const run = useCallback(async (request: () => Promise<unknown>) => {
    setBusy(true);
    setError('');
    try {
      await request();
      return true;
    } catch (error) {
      if (mounted.current) setError(errorMessage(error));
      return false;
    } finally {
      if (mounted.current) setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(''), []);
  return { busy, error, run, clear };
}

/** An API error's message; `role="alert"` is announced when it appears, so it is rendered only then. */
export function ErrorAlert({ error }: { error: string }) {
  if (!error) return null;
  return (
    <p role="alert" class="panel-error">
      {error}
    </p>
  );
}

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  class?: string;
}

/**
 * A modal `<dialog>`: focus stays inside while it is open, Escape closes it (the browser's
 * `cancel` event), and focus returns to whatever opened it.
 */
export function Modal({ title, onClose, children, class: className }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // Start in the dialog's first field (or the control marked autofocus), not on its Close button.
      const first =
        dialog.querySelector<HTMLElement>('.panel-dialog-body [autofocus]') ??
        dialog.querySelector<HTMLElement>(
          '.panel-dialog-body :is(input, select, textarea, button):not([disabled], [hidden], [type="hidden"])',
        );
      first?.focus();
    }
    return () => {
      if (dialog?.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={`panel-dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      aria-modal="true"
      onCancel={(event) => {
        event.preventDefault();
        close.current();
      }}
    >
      <header class="panel-dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="panel-close" aria-label="Close" onClick={() => close.current()}>
          ×
        </button>
      </header>
      <div class="panel-dialog-body">{children}</div>
    </dialog>
  );
}

/** A labelled checkbox that saves itself when toggled. */
export function Toggle({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <label class="panel-check">
      <input type="checkbox" checked={checked} disabled={disabled ?? false} onChange={(event) => onChange(event.currentTarget.checked)} />
      {label}
    </label>
  );
}

/** The box a popup can show in: the window, narrowed by every scrolling ancestor (the message list). */
function visibleBox(element: HTMLElement): { top: number; right: number; bottom: number; left: number } {
  const box = { top: 0, right: window.innerWidth, bottom: window.innerHeight, left: 0 };
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const style = getComputedStyle(parent);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const rect = parent.getBoundingClientRect();
    box.top = Math.max(box.top, rect.top);
    box.right = Math.min(box.right, rect.right);
    box.bottom = Math.min(box.bottom, rect.bottom);
    box.left = Math.max(box.left, rect.left);
  }
  return box;
}

/**
 * A popup (menu, picker) opens below its button on one side; where that would be cut off by
 * the window or a scrolling container it flips to the other side or above, marked by
 * `data-flip-x` / `data-flip-y` for the CSS (no inline styles: the page's CSP forbids them).
 */
export function fitInViewport(popup: HTMLElement | null): void {
  if (!popup) return;
  const rect = popup.getBoundingClientRect();
  const box = visibleBox(popup);
  if (rect.left < box.left || rect.right > box.right) popup.dataset['flipX'] = '';
  // Above when it does not fit below and there is more room above than below.
  if (rect.bottom > box.bottom && rect.top - box.top > box.bottom - rect.top) popup.dataset['flipY'] = '';
}
