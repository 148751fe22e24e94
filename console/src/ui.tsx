/**
 * The console's building blocks: a labelled field per input, a form that
 * shows the Management API's error message and a confirmation, a table per
 * list, and a loader hook. Plain semantic HTML; no inline styles or scripts
 * (the page's Content-Security-Policy allows neither).
 */
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useId, useRef, useState } from 'preact/hooks';
import type { Api } from './api.js';

export const ApiContext = createContext<Api | undefined>(undefined);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('no Api in context');
  return api;
}

/** A message for any thrown value. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` now and whenever `deps` change or `reload()` is called. New
 * `deps` (another search, another page) drop what was shown; a reload (after
 * a change) keeps it on screen until the new data comes.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    const key = JSON.stringify(deps);
    setState((s) => (shown.current === key ? { ...s, loading: true } : { loading: true }));
    shown.current = key;
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: messageOf(error), loading: false }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);
  return { data: state.data, error: state.error, loading: state.loading, reload: useCallback(() => setRound((r) => r + 1), []) };
}

export function ErrorMessage({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}

/** What a list or detail shows while loading or after failing. */
export function LoadState<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  if (loaded.data === undefined) return <p role="status">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Gatehouse admin console`;
  }, [title]);
  return (
    <header class="page-header">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children}
    </header>
  );
}

/** The input attributes the console's fields use. */
interface InputProps {
  type?: 'text' | 'email' | 'url' | 'password' | 'search' | 'number' | 'color';
  required?: boolean;
  maxLength?: number;
  pattern?: string;
  placeholder?: string;
  autoComplete?: string;
  min?: number;
  step?: string;
}

/** A text input and its label (and an optional hint tied by aria-describedby). */
export function Field({ label, value, onValue, hint, ...rest }: InputProps & { label: string; value: string; onValue: (value: string) => void; hint?: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} value={value} onInput={(e) => onValue(e.currentTarget.value)} aria-describedby={hint ? `${id}-hint` : undefined} {...(rest as Record<string, unknown>)} />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** A textarea for a list of values, one per line. */
export function ListField({ label, values, onValues, hint }: { label: string; values: string[]; onValues: (values: string[]) => void; hint?: string }) {
  const id = useId();
  const [text, setText] = useState(values.join('\n'));
  useEffect(() => setText(values.join('\n')), [values.join('\n')]);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        value={text}
        aria-describedby={`${id}-hint`}
        onInput={(e) => {
          setText(e.currentTarget.value);
          onValues(splitLines(e.currentTarget.value));
        }}
      />
      <p class="hint" id={`${id}-hint`}>
        {hint ?? 'One per line.'}
      </p>
    </div>
  );
}

export const splitLines = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

export function Checkbox({ label, checked, onChecked, hint }: { label: string; checked: boolean; onChecked: (checked: boolean) => void; hint?: string }) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChecked(e.currentTarget.checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

export function Select({ label, value, onValue, options, required }: { label: string; value: string; onValue: (value: string) => void; options: readonly (string | [string, string])[]; required?: boolean }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} required={required} onChange={(e) => onValue(e.currentTarget.value)}>
        {options.map((option) => {
          const [v, text] = typeof option === 'string' ? [option, option] : option;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/**
 * A form section: a heading, the fields, a submit button. While `onSubmit`
 * runs the button is disabled; its failure (the API's message) or `done`
 * (what it returned, as a sentence) is announced below.
 */
export function Form({ title, submit, onSubmit, children, level = 2 }: { title: string; submit: string; onSubmit: () => Promise<string | void>; children: ComponentChildren; level?: 2 | 3 }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <form
      class="card"
      aria-labelledby={id}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(undefined);
        setDone(undefined);
        try {
          setDone((await onSubmit()) || 'Saved.');
        } catch (failure) {
          setError(messageOf(failure));
        } finally {
          setBusy(false);
        }
      }}
    >
      <Heading id={id}>{title}</Heading>
      {children}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {submit}
        </button>
      </div>
      <ErrorMessage error={error} />
      {done && !error && (
        <p class="done" role="status">
          {done}
        </p>
      )}
    </form>
  );
}

/** A button that runs an action and reports its failure beside it. */
export function ActionButton({ label, action, danger, confirm: question }: { label: string; action: () => Promise<unknown>; danger?: boolean; confirm?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [asking, setAsking] = useState(false);
  const run = async () => {
    setAsking(false);
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="action">
      {asking ? (
        <span role="group" aria-label={question}>
          <span class="question">{question}</span>{' '}
          <button type="button" class="danger" onClick={run}>
            Yes, {label.toLowerCase()}
          </button>{' '}
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <button type="button" class={danger ? 'danger' : undefined} disabled={busy} onClick={() => (question ? setAsking(true) : run())}>
          {label}
        </button>
      )}
      <ErrorMessage error={error} />
    </span>
  );
}

export interface Column<T> {
  title: string;
  cell: (row: T) => ComponentChildren;
}

export function Table<T>({ caption, columns, rows, empty }: { caption: string; columns: Column<T>[]; rows: T[]; empty?: string }) {
  if (rows.length === 0) return <p class="empty">{empty ?? `No ${caption.toLowerCase()}.`}</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.title} scope="col">
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.title}>{c.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A search box (role=search) that calls `onSearch` on submit. */
export function SearchBox({ label, initial, onSearch, hint }: { label: string; initial: string; onSearch: (q: string) => void; hint?: string }) {
  const [q, setQ] = useState(initial);
  return (
    <form
      role="search"
      class="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(q.trim());
      }}
    >
      <Field label={label} value={q} onValue={setQ} type="search" {...(hint !== undefined && { hint })} />
      <button type="submit">Search</button>
    </form>
  );
}

/** A dl of label → value pairs. */
export function Details({ items }: { items: [string, ComponentChildren][] }) {
  return (
    <dl class="details">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A section card of facts. */
export function InfoCard({ title, items }: { title: string; items: [string, ComponentChildren][] }) {
  const id = useId();
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <Details items={items} />
    </section>
  );
}

/**
 * The page of one item: its title once loaded (`fallback` before), a link
 * back to the list at `#/<section>`, then what `children` render of it.
 */
export function DetailPage<T>({ loaded, title, fallback, section, sectionTitle, children }: { loaded: Loaded<T>; title: (data: T) => string | undefined; fallback: string; section: string; sectionTitle: string; children: (data: T) => ComponentChildren }) {
  return (
    <>
      <PageHeader title={(loaded.data !== undefined && title(loaded.data)) || fallback}>
        <p>
          <a href={`#/${section}`}>Back to {sectionTitle}</a>
        </p>
      </PageHeader>
      <LoadState loaded={loaded}>{children}</LoadState>
    </>
  );
}

/** A copy of `set` with `key` in it or not. */
export function toggled<T>(set: ReadonlySet<T>, key: T, on: boolean): Set<T> {
  const next = new Set(set);
  if (on) next.add(key);
  else next.delete(key);
  return next;
}

/** A button in every row of a list (remove, turn on or off): its label for the row and what it does; a loaded list is reloaded after it. */
export interface RowAction<T> {
  label: (row: T) => string;
  run: (row: T) => Promise<unknown>;
}

/** What every list of the console is made of, on a page of its own or in a section of a detail page. */
interface ListProps<T> {
  /** The rows: loaded (shown loading, failed, and reloaded after a row's action), or already at hand. */
  rows: Loaded<T[]> | T[];
  columns: Column<T>[];
  /** Names the table for screen readers. */
  caption: string;
  /** What an empty list says (default: "No <caption>."). */
  empty?: string;
  /** Adds an Actions column with this button per row. */
  action?: RowAction<T>;
  pager?: Paging;
}

/** The one list component: the table (with its row actions), its loading and failure states, and the pager. */
function List<T>({ rows, columns, caption, empty, action, pager }: ListProps<T>) {
  const loaded = Array.isArray(rows) ? undefined : rows;
  const shown = action ? [...columns, actionColumn(action, loaded?.reload)] : columns;
  const table = (list: T[]) => (
    <>
      <Table caption={caption} rows={list} columns={shown} {...(empty !== undefined && { empty })} />
      {pager && <Pager paging={pager} count={list.length} />}
    </>
  );
  return loaded ? <LoadState loaded={loaded}>{table}</LoadState> : table(rows as T[]);
}

function actionColumn<T>(action: RowAction<T>, reload: (() => void) | undefined): Column<T> {
  return {
    title: 'Actions',
    cell: (row) => (
      <ActionButton
        label={action.label(row)}
        action={async () => {
          await action.run(row);
          reload?.();
        }}
      />
    ),
  };
}

/**
 * A section's list page: its heading, what comes before the list (a
 * search), the list, then `children` (a create form).
 */
export function ListPage<T>({ title, loaded, before, children, ...list }: Omit<ListProps<T>, 'rows' | 'caption'> & { title: string; loaded: Loaded<T[]>; before?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <>
      <PageHeader title={title} />
      {before}
      <List caption={title} rows={loaded} {...list} />
      {children}
    </>
  );
}

/**
 * A list inside a detail page (the roles of a user, the members of a group,
 * the scopes of an API): a card with its heading, the list, then `children`
 * (the form that adds one, or an action on all of them).
 */
export function ListSection<T>({ title, children, ...list }: ListProps<T> & { title: string; children?: ComponentChildren }) {
  const id = useId();
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <List {...list} />
      {children}
    </section>
  );
}

/** Offset paging of a list (`page`, `per_page` of the Management API). */
export interface Paging {
  page: number;
  perPage: number;
  onPage: (page: number) => void;
}

/** Previous and next page; a full page is taken to mean there may be another. */
function Pager({ paging: { page, perPage, onPage }, count }: { paging: Paging; count: number }) {
  if (page === 0 && count < perPage) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>Page {page + 1}</span>
      <button type="button" disabled={count < perPage} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
