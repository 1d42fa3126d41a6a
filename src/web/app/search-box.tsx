/**
 * The search box: operators and free text (state/search-query.ts), with suggestions in a
 * keyboard-navigable listbox as the person types; Enter opens the search view.
 */
import { useRef, useState } from 'preact/hooks';
import type { ChatSnapshot } from '../common/types';
import type { Narrow } from '../state/narrow';
import { go } from './routing';
import { searchSuggestions } from './search-suggestions';

export function SearchBox({ narrow, snapshot }: { narrow: Narrow; snapshot: ChatSnapshot }) {
  const [text, setText] = useState(narrow.kind === 'search' ? narrow.words : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const suggestions = open ? searchSuggestions(text, snapshot) : [];
  const shown = suggestions.length > 0;

  const edit = (value: string) => {
    setText(value);
    setOpen(true);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!shown) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : suggestions.length - 1 + (index < 0 ? 1 : 0))) % suggestions.length);
    } else if (event.key === 'Enter' && suggestions[active]) {
      event.preventDefault();
      edit(suggestions[active].value);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
    }
  };

  return (
    <form
      class="search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        setOpen(false);
        if (text.trim()) go({ kind: 'search', words: text.trim() });
      }}
    >
      <input
        ref={input}
        type="search"
        aria-label="Search"
        placeholder="Search (sender:, stream:, topic:, is:starred …)"
        value={text}
        autocomplete="off"
        aria-autocomplete="list"
        aria-controls={shown ? 'search-suggestions' : undefined}
        aria-activedescendant={shown && active >= 0 ? `search-suggestion-${active}` : undefined}
        onInput={(event) => edit(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      {shown && (
        <ul class="completions search-suggestions" id="search-suggestions" role="listbox" aria-label="Search suggestions">
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion.value}
              id={`search-suggestion-${index}`}
              role="option"
              aria-selected={index === active ? 'true' : 'false'}
              onMouseDown={(event) => {
                // Keeps the focus in the box, which the next suggestions need.
                event.preventDefault();
                edit(suggestion.value);
                input.current?.focus();
              }}
            >
              {suggestion.label}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
