/**
 * The service's Lucene subset for log searches (`q`, or `search` as the
 * document names it): `field:value` terms, a value quoted (`"…"`) or bare,
 * a bare one ending in `*` matching as a prefix, ranges on `date`
 * (`date:[a TO b]` inclusive, `{a TO b}` exclusive, `*` for an open end,
 * values as ISO dates or date-times), `AND`, `OR`, `NOT`, parentheses.
 * Terms side by side are ANDed (Gatehouse's choice, README). Bounded: at most
 * MAX_QUERY_LENGTH characters, MAX_TERMS terms, nesting MAX_DEPTH.
 */

export const SEARCHABLE_FIELDS = [
  'type',
  'user_id',
  'client_id',
  'client_name',
  'connection',
  'connection_id',
  'ip',
  'user_name',
  'strategy',
  'strategy_type',
  'hostname',
  'audience',
  'description',
  'log_id',
  'date',
] as const;
export type SearchableField = (typeof SEARCHABLE_FIELDS)[number];

export type LogFilter =
  | { kind: 'term'; field: SearchableField; value: string; prefix: boolean }
  | { kind: 'range'; field: 'date'; from?: { value: string; inclusive: boolean }; to?: { value: string; inclusive: boolean } }
  | { kind: 'and' | 'or'; items: LogFilter[] }
  | { kind: 'not'; item: LogFilter };

export const MAX_QUERY_LENGTH = 1024;
const MAX_TERMS = 20;
const MAX_DEPTH = 5;

export class LogQueryError extends Error {}

type Token = { kind: 'word'; text: string; quoted: boolean } | { kind: 'op'; text: '(' | ')' | '[' | ']' | '{' | '}' | ':' };

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i]!;
    if (/\s/.test(c)) {
      i += 1;
    } else if ('()[]{}:'.includes(c)) {
      tokens.push({ kind: 'op', text: c as '(' });
      i += 1;
    } else if (c === '"') {
      let text = '';
      i += 1;
      for (;;) {
        if (i >= q.length) throw new LogQueryError('unterminated quoted value');
        const d = q[i]!;
        if (d === '\\' && i + 1 < q.length) {
          text += q[i + 1];
          i += 2;
        } else if (d === '"') {
          i += 1;
          break;
        } else {
          text += d;
          i += 1;
        }
      }
      tokens.push({ kind: 'word', text, quoted: true });
    } else {
      let text = '';
      while (i < q.length && !/\s/.test(q[i]!) && !'()[]{}"'.includes(q[i]!)) {
        // A colon ends a field name; in a value (a date-time) it is part of it.
        if (q[i] === ':' && tokens.at(-1)?.text !== ':' && (SEARCHABLE_FIELDS as readonly string[]).includes(text)) break;
        if (q[i] === '\\' && i + 1 < q.length) i += 1;
        text += q[i];
        i += 1;
      }
      if (text === '') throw new LogQueryError(`unexpected "${q[i]}"`);
      tokens.push({ kind: 'word', text, quoted: false });
    }
  }
  return tokens;
}

class Parser {
  private i = 0;
  private terms = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private isWord(text: string): boolean {
    const t = this.peek();
    return t?.kind === 'word' && !t.quoted && t.text === text;
  }

  private expectOp(text: string): void {
    const t = this.peek();
    if (t?.kind !== 'op' || t.text !== text) throw new LogQueryError(`expected "${text}"`);
    this.i += 1;
  }

  parse(): LogFilter {
    const filter = this.or(0);
    if (this.i < this.tokens.length) throw new LogQueryError(`unexpected "${this.peek()!.text}"`);
    return filter;
  }

  private or(depth: number): LogFilter {
    if (depth > MAX_DEPTH) throw new LogQueryError('the query is nested too deeply');
    const items = [this.and(depth)];
    while (this.isWord('OR')) {
      this.i += 1;
      items.push(this.and(depth));
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  private and(depth: number): LogFilter {
    const items = [this.unary(depth)];
    for (;;) {
      const t = this.peek();
      if (!t || (t.kind === 'op' && t.text === ')') || this.isWord('OR')) break;
      if (this.isWord('AND')) this.i += 1;
      items.push(this.unary(depth));
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private unary(depth: number): LogFilter {
    if (this.isWord('NOT')) {
      this.i += 1;
      return { kind: 'not', item: this.unary(depth) };
    }
    const t = this.peek();
    if (t?.kind === 'op' && t.text === '(') {
      this.i += 1;
      const inner = this.or(depth + 1);
      this.expectOp(')');
      return inner;
    }
    return this.term();
  }

  private value(): { text: string; quoted: boolean } {
    const t = this.peek();
    if (t?.kind !== 'word') throw new LogQueryError('expected a value');
    this.i += 1;
    return t;
  }

  private term(): LogFilter {
    this.terms += 1;
    if (this.terms > MAX_TERMS) throw new LogQueryError(`at most ${MAX_TERMS} terms`);
    const name = this.value();
    if (name.quoted || !(SEARCHABLE_FIELDS as readonly string[]).includes(name.text)) {
      const shown = name.text.split(':')[0]!.slice(0, 50);
      throw new LogQueryError(`"${shown}" is not a field that can be searched (${SEARCHABLE_FIELDS.join(', ')})`);
    }
    const field = name.text as SearchableField;
    this.expectOp(':');
    const t = this.peek();
    if (t?.kind === 'op' && (t.text === '[' || t.text === '{')) {
      if (field !== 'date') throw new LogQueryError(`ranges are taken on date only`);
      this.i += 1;
      const lower = this.value();
      if (!this.isWord('TO')) throw new LogQueryError('expected "TO" in a range');
      this.i += 1;
      const upper = this.value();
      const close = this.peek();
      if (close?.kind !== 'op' || (close.text !== ']' && close.text !== '}')) throw new LogQueryError('expected "]" or "}"');
      this.i += 1;
      return {
        kind: 'range',
        field,
        ...(lower.text !== '*' && { from: { value: isoDate(lower.text), inclusive: t.text === '[' } }),
        ...(upper.text !== '*' && { to: { value: isoDate(upper.text), inclusive: close.text === ']' } }),
      };
    }
    const value = this.value();
    const prefix = !value.quoted && value.text.endsWith('*');
    const text = prefix ? value.text.slice(0, -1) : value.text;
    if (!value.quoted && text.includes('*')) throw new LogQueryError('a wildcard is taken at the end of a value only');
    if (field === 'date') return dateTerm(text, prefix);
    return { kind: 'term', field, value: text, prefix };
  }
}

/** An ISO date or date-time as the stored dates are written (UTC, milliseconds). */
function isoDate(text: string): string {
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+Z?)?$/.test(text)) throw new LogQueryError(`"${text}" is not an ISO 8601 date`);
  const time = Date.parse(text.length === 10 ? `${text}T00:00:00.000Z` : text.endsWith('Z') ? text : `${text}Z`);
  if (Number.isNaN(time)) throw new LogQueryError(`"${text}" is not an ISO 8601 date`);
  return new Date(time).toISOString();
}

/** `date:2026-01-02` is that whole day; a date-time is that instant. */
function dateTerm(text: string, prefix: boolean): LogFilter {
  const from = isoDate(text);
  if (text.length === 10 || prefix) {
    const to = new Date(Date.parse(from) + 24 * 60 * 60 * 1000).toISOString();
    return { kind: 'range', field: 'date', from: { value: from, inclusive: true }, to: { value: to, inclusive: false } };
  }
  return { kind: 'range', field: 'date', from: { value: from, inclusive: true }, to: { value: from, inclusive: true } };
}

/** The filter of `q`; throws LogQueryError with a message for the caller's 400. */
export function parseLogQuery(q: string): LogFilter {
  if (q.length > MAX_QUERY_LENGTH) throw new LogQueryError(`the query is longer than ${MAX_QUERY_LENGTH} characters`);
  const tokens = tokenize(q);
  if (tokens.length === 0) throw new LogQueryError('the query is empty');
  return new Parser(tokens).parse();
}
