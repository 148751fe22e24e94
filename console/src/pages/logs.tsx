/**
 * Logs (/api/v2/logs): the tenant's events, searched with a Lucene `q`, and
 * one event's detail.
 */
import { useState } from 'preact/hooks';
import { seg } from '../api.js';
import { href } from '../router.js';
import { DetailPage, Details, ListPage, SearchBox, useApi, useLoad } from '../ui.js';

interface Log {
  log_id?: string;
  date?: string;
  type?: string;
  description?: string | null;
  client_name?: string;
  user_name?: string;
  ip?: string;
  details?: Record<string, unknown>;
}

const PER_PAGE = 50;

export function Logs({ route }: { route: string[] }) {
  return route[0] ? <LogDetail id={route[0]} /> : <LogList />;
}

function LogList() {
  const api = useApi();
  const [search, setSearch] = useState({ q: '', page: 0 });
  const logs = useLoad(() => api.get<Log[]>('/logs', { q: search.q, per_page: PER_PAGE, page: search.page, sort: 'date:-1' }), [search.q, search.page]);
  return (
    <ListPage
      title="Logs"
      loaded={logs}
      before={<SearchBox label="Search logs" initial="" onSearch={(q) => setSearch({ q, page: 0 })} hint="Lucene syntax, e.g. type:f or user_name:jane@example.com" />}
      pager={{ page: search.page, perPage: PER_PAGE, onPage: (page) => setSearch({ ...search, page }) }}
      columns={[
        { title: 'Date', cell: (l) => (l.log_id ? <a href={href('logs', l.log_id)}>{l.date}</a> : l.date) },
        { title: 'Type', cell: (l) => <code>{l.type}</code> },
        { title: 'Description', cell: (l) => l.description ?? '' },
        { title: 'Application', cell: (l) => l.client_name ?? '' },
        { title: 'User', cell: (l) => l.user_name ?? '' },
      ]}
    />
  );
}

function LogDetail({ id }: { id: string }) {
  const api = useApi();
  const log = useLoad(() => api.get<Log>(`/logs/${seg(id)}`), [id]);
  return (
    <DetailPage loaded={log} title={() => 'Log event'} fallback="Log event" section="logs" sectionTitle="logs">
      {(l) => (
        <section class="card" aria-labelledby="log-summary">
          <h2 id="log-summary">{l.description ?? l.type}</h2>
          <Details
            items={[
              ['ID', <code>{l.log_id}</code>],
              ['Date', l.date ?? ''],
              ['Type', <code>{l.type}</code>],
              ['Application', l.client_name ?? '—'],
              ['User', l.user_name ?? '—'],
              ['IP address', l.ip ?? '—'],
            ]}
          />
          <h3>Raw event</h3>
          <pre tabIndex={0} aria-label="The event as JSON">
            {JSON.stringify(l, null, 2)}
          </pre>
        </section>
      )}
    </DetailPage>
  );
}
