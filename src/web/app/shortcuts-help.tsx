/** The `?` overlay listing the keyboard shortcuts, and the skip link to the compose box. */
import { SHORTCUTS } from './keyboard';
import { Modal } from './panels/ui';

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} class="shortcuts-help">
      <dl class="shortcut-list">
        {SHORTCUTS.map(([keys, action]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{action}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}

/** The first focusable element: keyboard users go straight to writing. */
export function SkipToCompose() {
  return (
    <a
      class="skip-link"
      href="#compose"
      onClick={(event) => {
        // The address holds the open view: the link only moves the focus.
        event.preventDefault();
        document.querySelector<HTMLTextAreaElement>('.compose textarea')?.focus();
      }}
    >
      Skip to compose
    </a>
  );
}
