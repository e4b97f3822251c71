import { filterMentionNames, mentionQueryAt } from '@fankurve/shared/rules/comments';
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type TextareaHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';

interface Props extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'role'> {
  value: string;
  onValueChange: (value: string) => void;
  /** The usernames that may be mentioned (active members). */
  names: readonly string[];
}

/**
 * A comment textarea with @mention autocomplete (docs/product.md, Comments, mentions and notifications): typing an @ at the start or after a space,
 * with no space after it, opens a list of the members whose names contain what was typed
 * (case-insensitively, by the shared rule). Only typing opens it: a text opened for editing that ends
 * with a mention shows no list. Up/down move, Enter or Tab insert "@username ", Escape, a space,
 * choosing a name or leaving the field close it; a tap or click on a name inserts it too.
 * ARIA: a textarea may not take role="combobox", so it stays a textbox with aria-autocomplete,
 * aria-controls and aria-activedescendant pointing into the listbox; screen readers still announce the
 * active name (docs/architecture.md, Comments).
 */
export function MentionInput({ value, onValueChange, names, onKeyDown, onBlur, onFocus, onSelect, ...rest }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const ref = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  /** The start of the mention being typed: the list belongs to it until it is chosen, ended, escaped or left. */
  const [typedAt, setTypedAt] = useState<number | null>(null);
  const [active, setActive] = useState({ key: '', index: 0 });
  const pendingCaret = useRef<number | null>(null);

  const query = focused && caret !== null ? mentionQueryAt(value, caret) : null;
  const matches = query ? filterMentionNames(names, query.query) : [];
  const open = query !== null && matches.length > 0 && typedAt === query.start;
  const key = query ? `${query.start}:${query.query}` : '';
  const index = active.key === key ? Math.min(active.index, matches.length - 1) : 0;
  const optionId = (i: number) => `${id}-option-${i}`;

  // After an insertion, the caret goes behind the inserted name.
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !ref.current) return;
    pendingCaret.current = null;
    ref.current.setSelectionRange(at, at);
  }, [value]);

  // The active name stays visible in a list that scrolls.
  useLayoutEffect(() => {
    if (!open) return;
    document.getElementById(optionId(index))?.scrollIntoView({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- optionId is derived from the stable id
  }, [open, index]);

  const readCaret = () => {
    const element = ref.current;
    if (!element) return;
    setCaret(element.selectionStart === element.selectionEnd ? element.selectionStart : null);
  };

  function choose(name: string) {
    if (!query || caret === null) return;
    const insert = `@${name} `;
    // The rest of a partly typed name after the caret goes too.
    const after = value.slice(caret).replace(/^[^\s@]*/u, '');
    const next = value.slice(0, query.start) + insert + after;
    const at = query.start + insert.length;
    pendingCaret.current = at;
    setCaret(at);
    setTypedAt(null);
    onValueChange(next);
    ref.current?.focus();
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive({ key, index: (index + step + matches.length) % matches.length });
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        choose(matches[index]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setTypedAt(null);
        return;
      }
    }
    onKeyDown?.(event);
  }

  return (
    <div className="mention-input">
      <textarea
        {...rest}
        ref={ref}
        value={value}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(index) : undefined}
        onChange={(event) => {
          onValueChange(event.target.value);
          const element = event.target;
          const at = element.selectionStart === element.selectionEnd ? element.selectionStart : null;
          setCaret(at);
          setTypedAt(at === null ? null : (mentionQueryAt(element.value, at)?.start ?? null));
        }}
        onSelect={(event) => {
          readCaret();
          onSelect?.(event);
        }}
        onKeyDown={keyDown}
        onFocus={(event) => {
          setFocused(true);
          readCaret();
          onFocus?.(event);
        }}
        onBlur={(event) => {
          setFocused(false);
          setTypedAt(null);
          onBlur?.(event);
        }}
      />
      {open ? (
        <ul className="mention-suggestions" role="listbox" id={listId} aria-label={t('comments.suggestions')}>
          {matches.map((name, i) => (
            <li
              key={name}
              id={optionId(i)}
              role="option"
              aria-selected={i === index}
              // Named as a whole: the bold part would otherwise split the name for screen readers.
              aria-label={`@${name}`}
              className={i === index ? 'mention-option active' : 'mention-option'}
              // Keeps the focus (and the caret) in the textarea on a click or tap.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(name)}
            >
              <Highlighted name={name} query={query!.query} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The name with the typed part in bold. */
function Highlighted({ name, query }: { name: string; query: string }) {
  const at = query ? name.toLocaleLowerCase().indexOf(query.toLocaleLowerCase()) : -1;
  if (at === -1) return <>@{name}</>;
  return (
    <>
      @{name.slice(0, at)}
      <strong>{name.slice(at, at + query.length)}</strong>
      {name.slice(at + query.length)}
    </>
  );
}
