/**
 * The `q` of GET /api/v2/users (search engine v3): the subset of Lucene's
 * query string syntax (https://lucene.apache.org/core/2_9_4/queryparsersyntax.html)
 * that the service's user search documents, parsed into a SearchNode tree
 * (src/domain/users/search.ts). The store turns the tree into SQL with bound
 * values; nothing here is ever pasted into SQL.
 *
 * Understood: `field:value`, `field:"a phrase"`, a trailing `*` (`email:jane*`),
 * `field:*` (the field is present), ranges `[a TO b]`, `{a TO b}` and mixed
 * brackets with `*` for an open end (dates and logins_count), AND / && / OR / ||
 * / NOT / ! / - / +, parentheses, field groups (`email:("a@x.com" OR "b@x.com")`),
 * backslash escapes, and a term without a field (matched against email, name,
 * nickname, username and user_id). Two clauses side by side are joined by OR,
 * Lucene's default operator.
 *
 * Bounded before anything runs: MAX_QUERY_LENGTH characters, MAX_TERMS terms,
 * MAX_DEPTH nested groups. Anything else is a 400 `invalid_query_string`.
 */
import { managementErrors } from '../../platform/http/errors.js';
import {
  USER_DATE_FIELDS,
  USER_FLAG_FIELDS,
  USER_SORT_FIELDS,
  USER_TEXT_FIELDS,
  type SearchField,
  type SearchNode,
  type UserDateField,
  type UserFlagField,
  type UserSortField,
  type UserTextField,
} from '../../domain/users/search.js';

export const MAX_QUERY_LENGTH = 2048;
export const MAX_TERMS = 50;
export const MAX_DEPTH = 10;
const MAX_METADATA_PATH = 10;
const MAX_VALUE_LENGTH = 512;

const invalid = (detail: string) => managementErrors.badRequest(`Invalid query string: ${detail}`, 'invalid_query_string');

const FREE_TEXT_FIELDS: SearchField[] = [
  { kind: 'text', column: 'email' },
  { kind: 'text', column: 'name' },
  { kind: 'text', column: 'nickname' },
  { kind: 'text', column: 'username' },
  { kind: 'user_id' },
];

function fieldNamed(name: string): SearchField {
  if ((USER_TEXT_FIELDS as readonly string[]).includes(name)) return { kind: 'text', column: name as UserTextField };
  if ((USER_DATE_FIELDS as readonly string[]).includes(name)) return { kind: 'date', column: name as UserDateField };
  if ((USER_FLAG_FIELDS as readonly string[]).includes(name)) return { kind: 'flag', column: name as UserFlagField };
  if (name === 'user_id') return { kind: 'user_id' };
  if (name === 'logins_count') return { kind: 'logins_count' };
  if (name === 'identities.connection') return { kind: 'connection' };
  if (name === 'identities.provider') return { kind: 'provider' };
  const metadata = /^(app_metadata|user_metadata)\.(.+)$/.exec(name);
  if (metadata) {
    const path = metadata[2]!.split('.');
    if (path.length > MAX_METADATA_PATH || path.some((key) => key === '' || /["\\]/.test(key))) {
      throw invalid(`the metadata field ${name} is not searchable`);
    }
    return { kind: 'metadata', column: metadata[1] as 'app_metadata' | 'user_metadata', path };
  }
  throw invalid(`the field ${name} is not searchable`);
}

/** An ISO 8601 date or instant; a bare day stands for the whole day (its first or last millisecond). */
function instant(value: string, endOfDay: boolean): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (!day && !/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})?$/.test(value)) throw invalid(`${value} is not a date`);
  const ms = Date.parse(day ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(ms)) throw invalid(`${value} is not a date`);
  return new Date(day && endOfDay ? ms + 86_400_000 - 1 : ms).toISOString();
}

function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}

function integer(value: string): string {
  if (!/^\d{1,15}$/.test(value)) throw invalid(`${value} is not a number`);
  return String(Number(value));
}

/** `field:value` as a node: dates become their day's range, flags must be true or false. */
function termNode(field: SearchField, raw: string, wildcard: 'none' | 'prefix' | 'all'): SearchNode {
  if (raw.length > MAX_VALUE_LENGTH) throw invalid(`a term is longer than ${MAX_VALUE_LENGTH} characters`);
  if (wildcard === 'all') return { kind: 'term', field, match: 'exists', value: '' };
  if (wildcard === 'prefix' && field.kind !== 'text' && field.kind !== 'user_id' && field.kind !== 'metadata' && field.kind !== 'connection') {
    throw invalid('wildcards apply to text fields only');
  }
  if (wildcard === 'prefix') return { kind: 'term', field, match: 'prefix', value: raw };
  switch (field.kind) {
    case 'date':
      return isDay(raw)
        ? { kind: 'range', field, from: instant(raw, false), to: instant(raw, true), fromInclusive: true, toInclusive: true }
        : { kind: 'term', field, match: 'exact', value: instant(raw, false) };
    case 'flag':
      if (raw !== 'true' && raw !== 'false') throw invalid(`${raw} is not true or false`);
      return { kind: 'term', field, match: 'exact', value: raw };
    case 'logins_count':
      return { kind: 'term', field, match: 'exact', value: integer(raw) };
    default:
      return { kind: 'term', field, match: 'exact', value: raw };
  }
}

function rangeNode(field: SearchField, from: string, to: string, fromInclusive: boolean, toInclusive: boolean): SearchNode {
  if (field.kind !== 'date' && field.kind !== 'logins_count') throw invalid('ranges apply to dates and logins_count only');
  const bound = (value: string, upper: boolean, inclusive: boolean) => {
    if (value === '*') return undefined;
    if (field.kind === 'logins_count') return integer(value);
    // A bare day as a bound: an inclusive upper bound or an exclusive lower one takes the day's end.
    return instant(value, isDay(value) && upper === inclusive);
  };
  return { kind: 'range', field, from: bound(from, false, fromInclusive), to: bound(to, true, toInclusive), fromInclusive, toInclusive };
}

interface Word {
  text: string;
  /** An unescaped `*` at the end (wildcard), or the word is only `*`. */
  wildcard: 'none' | 'prefix' | 'all';
}

class Parser {
  private pos = 0;
  private terms = 0;
  private depth = 0;

  constructor(private readonly input: string) {}

  parse(): SearchNode {
    const node = this.or(undefined);
    this.skip();
    if (this.pos < this.input.length) throw invalid(`unexpected ${this.input[this.pos]} at position ${this.pos}`);
    return node;
  }

  private skip(): void {
    while (this.pos < this.input.length && /\s/.test(this.input[this.pos]!)) this.pos++;
  }

  private atEnd(): boolean {
    this.skip();
    return this.pos >= this.input.length;
  }

  /** Consumes an operator keyword (a word followed by a space or a parenthesis) or symbol. */
  private operator(...names: string[]): boolean {
    this.skip();
    for (const name of names) {
      if (!this.input.startsWith(name, this.pos)) continue;
      const next = this.input[this.pos + name.length];
      const symbolic = !/^[A-Z]+$/.test(name);
      if (symbolic || next === undefined || /[\s(]/.test(next)) {
        this.pos += name.length;
        return true;
      }
    }
    return false;
  }

  private or(field: SearchField | undefined): SearchNode {
    const children = [this.and(field)];
    for (;;) {
      if (this.atEnd() || this.input[this.pos] === ')') break;
      this.operator('OR', '||');
      children.push(this.and(field));
    }
    return children.length === 1 ? children[0]! : { kind: 'or', children };
  }

  private and(field: SearchField | undefined): SearchNode {
    const children = [this.unary(field)];
    while (this.operator('AND', '&&')) children.push(this.unary(field));
    return children.length === 1 ? children[0]! : { kind: 'and', children };
  }

  private unary(field: SearchField | undefined): SearchNode {
    if (this.operator('NOT', '!', '-')) return { kind: 'not', child: this.unary(field) };
    if (this.operator('+')) return this.unary(field);
    return this.primary(field);
  }

  private group(field: SearchField | undefined): SearchNode {
    this.pos++; // (
    if (++this.depth > MAX_DEPTH) throw invalid(`more than ${MAX_DEPTH} nested groups`);
    const node = this.or(field);
    this.skip();
    if (this.input[this.pos] !== ')') throw invalid('a group is not closed');
    this.pos++;
    this.depth--;
    return node;
  }

  private primary(field: SearchField | undefined): SearchNode {
    this.skip();
    if (this.pos >= this.input.length) throw invalid('a term is missing');
    if (this.input[this.pos] === '(') return this.group(field);
    if (field) return this.value(field);
    if (this.input[this.pos] === '"') return this.count(this.anyField(this.quoted(), 'none'));
    const word = this.word(true);
    if (this.input[this.pos] !== ':') return this.count(this.anyField(word.text, word.wildcard));
    this.pos++; // :
    if (word.wildcard !== 'none' || word.text === '') throw invalid('a field name is missing');
    return this.value(fieldNamed(word.text));
  }

  /** The value after `field:`: a phrase, a range, a group of values for the field, or a word. */
  private value(field: SearchField): SearchNode {
    const c = this.input[this.pos];
    if (c === '(') return this.group(field);
    if (c === '"') return this.count(termNode(field, this.quoted(), 'none'));
    if (c === '[' || c === '{') return this.count(this.range(field));
    const word = this.word(false);
    if (word.text === '' && word.wildcard === 'none') throw invalid(`a value is missing at position ${this.pos}`);
    return this.count(termNode(field, word.text, word.wildcard));
  }

  private anyField(text: string, wildcard: Word['wildcard']): SearchNode {
    if (text === '' && wildcard === 'none') throw invalid(`unexpected ${this.input[this.pos] ?? 'end'} at position ${this.pos}`);
    return { kind: 'or', children: FREE_TEXT_FIELDS.map((field) => termNode(field, text, wildcard)) };
  }

  private count(node: SearchNode): SearchNode {
    if (++this.terms > MAX_TERMS) throw invalid(`more than ${MAX_TERMS} terms`);
    return node;
  }

  private quoted(): string {
    let text = '';
    this.pos++; // "
    while (this.pos < this.input.length && this.input[this.pos] !== '"') {
      if (this.input[this.pos] === '\\' && this.pos + 1 < this.input.length) this.pos++;
      text += this.input[this.pos++];
    }
    if (this.input[this.pos] !== '"') throw invalid('a phrase is not closed');
    this.pos++;
    return text;
  }

  /** A bare word up to a space or a special character; `stopAtColon` for what may be a field name. */
  private word(stopAtColon: boolean): Word {
    let text = '';
    let wildcard: Word['wildcard'] = 'none';
    while (this.pos < this.input.length) {
      const c = this.input[this.pos]!;
      if (/[\s()[\]{}"]/.test(c) || (stopAtColon && c === ':')) break;
      if (wildcard !== 'none') throw invalid('wildcards are only supported at the end of a term');
      if (c === '\\' && this.pos + 1 < this.input.length) {
        text += this.input[this.pos + 1];
        this.pos += 2;
        continue;
      }
      if (c === '?') throw invalid('wildcards are only supported at the end of a term');
      if (c === '*') wildcard = text === '' ? 'all' : 'prefix';
      else text += c;
      this.pos++;
    }
    if (wildcard === 'all' && text !== '') wildcard = 'prefix';
    return { text, wildcard };
  }

  private range(field: SearchField): SearchNode {
    const fromInclusive = this.input[this.pos++] === '[';
    this.skip();
    const from = this.rangeBound();
    this.skip();
    if (!this.input.startsWith('TO', this.pos)) throw invalid('a range needs TO');
    this.pos += 2;
    this.skip();
    const to = this.rangeBound();
    this.skip();
    const close = this.input[this.pos];
    if (close !== ']' && close !== '}') throw invalid('a range is not closed');
    this.pos++;
    return rangeNode(field, from, to, fromInclusive, close === ']');
  }

  private rangeBound(): string {
    if (this.input[this.pos] === '"') return this.quoted();
    let text = '';
    while (this.pos < this.input.length && !/[\s\]}]/.test(this.input[this.pos]!)) text += this.input[this.pos++];
    if (text === '') throw invalid('a range bound is missing');
    return text;
  }
}

/** `q` as a SearchNode, or a 400 `invalid_query_string`; an empty query is no filter. */
export function parseUserQuery(q: string): SearchNode | undefined {
  if (q.length > MAX_QUERY_LENGTH) throw invalid(`the query is longer than ${MAX_QUERY_LENGTH} characters`);
  if (q.trim() === '') return undefined;
  return new Parser(q).parse();
}

/** `sort=field:1|-1`. */
export function parseUserSort(sort: string): { field: UserSortField; descending: boolean } {
  const match = /^([a-z_]+):(1|-1)$/.exec(sort);
  if (!match || !(USER_SORT_FIELDS as readonly string[]).includes(match[1]!)) {
    throw managementErrors.badRequest(`Invalid sort: use field:1 or field:-1 with one of ${USER_SORT_FIELDS.join(', ')}`, 'invalid_query_string');
  }
  return { field: match[1] as UserSortField, descending: match[2] === '-1' };
}
