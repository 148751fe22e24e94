/** The Lucene subset of log searches: what parses to which filter, and what is refused. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogQueryError, parseLogQuery } from '../../src/domain/logs/query.js';
import { cleanDetails } from '../../src/domain/logs/events.js';

describe('parseLogQuery', () => {
  it('terms, quoted values, prefixes, AND/OR/NOT and parentheses', () => {
    assert.deepEqual(parseLogQuery('type:f'), { kind: 'term', field: 'type', value: 'f', prefix: false });
    assert.deepEqual(parseLogQuery('user_id:"auth0|abc def"'), { kind: 'term', field: 'user_id', value: 'auth0|abc def', prefix: false });
    assert.deepEqual(parseLogQuery('type:f*'), { kind: 'term', field: 'type', value: 'f', prefix: true });
    assert.deepEqual(parseLogQuery('type:"f*"'), { kind: 'term', field: 'type', value: 'f*', prefix: false }, 'a quoted star is literal');
    assert.deepEqual(parseLogQuery('type:s OR type:f AND client_id:x'), {
      kind: 'or',
      items: [
        { kind: 'term', field: 'type', value: 's', prefix: false },
        { kind: 'and', items: [{ kind: 'term', field: 'type', value: 'f', prefix: false }, { kind: 'term', field: 'client_id', value: 'x', prefix: false }] },
      ],
    });
    assert.deepEqual(parseLogQuery('(type:s OR type:f) client_id:x').kind, 'and', 'side by side is AND');
    assert.deepEqual(parseLogQuery('NOT type:s'), { kind: 'not', item: { kind: 'term', field: 'type', value: 's', prefix: false } });
  });

  it('date ranges, inclusive and exclusive, open ends, days and instants', () => {
    assert.deepEqual(parseLogQuery('date:[2026-01-01 TO 2026-01-02T10:00:00Z}'), {
      kind: 'range',
      field: 'date',
      from: { value: '2026-01-01T00:00:00.000Z', inclusive: true },
      to: { value: '2026-01-02T10:00:00.000Z', inclusive: false },
    });
    assert.deepEqual(parseLogQuery('date:[* TO 2026-01-02]'), { kind: 'range', field: 'date', to: { value: '2026-01-02T00:00:00.000Z', inclusive: true } });
    assert.deepEqual(parseLogQuery('date:2026-01-01'), {
      kind: 'range',
      field: 'date',
      from: { value: '2026-01-01T00:00:00.000Z', inclusive: true },
      to: { value: '2026-01-02T00:00:00.000Z', inclusive: false },
    });
  });

  it('refuses what it does not take, with a message', () => {
    for (const q of ['', 'f', 'password:x', 'type:', 'type:(f', 'type:"f', 'type:[a TO b]', 'date:[yesterday TO *]', 'type:f*x', 'type:s OR', 'x'.repeat(1025), Array.from({ length: 21 }, () => 'type:f').join(' OR '), '('.repeat(8) + 'type:f' + ')'.repeat(8)]) {
      assert.throws(() => parseLogQuery(q), LogQueryError, q.slice(0, 40));
    }
  });
});

describe('cleanDetails', () => {
  it('drops members that may carry secrets at any depth, and bounds the rest', () => {
    assert.deepEqual(
      cleanDetails({ error: 'x', password: 'p', nested: { client_secret: 's', access_token: 't', code: 'c', keep: 1 }, list: [{ refresh_token: 'r', ok: true }] }),
      { error: 'x', nested: { keep: 1 }, list: [{ ok: true }] },
    );
    assert.equal(cleanDetails({ password: 'only' }), null);
    assert.deepEqual(cleanDetails({ big: 'y'.repeat(5000) }), { big: 'y'.repeat(512) });
  });
});
