/**
 * The admin console's entry point: signs the operator in (./auth.ts), then
 * renders the shell (a left navigation and the page the hash names) or, when
 * the login was refused, the refusal screen.
 */
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { createApi } from './api.js';
import { logOut, signIn, type Session } from './auth.js';
import { href, useRoute } from './router.js';
import { ApiContext } from './ui.js';
import { PAGES } from './pages/index.js';

function Refused({ session }: { session: Extract<Session, { kind: 'refused' }> }) {
  useEffect(() => {
    document.title = 'Access refused · Gatehouse admin console';
  }, []);
  return (
    <main class="refused" aria-labelledby="refused-title">
      <h1 id="refused-title">Access refused</h1>
      <p>You cannot use the Gatehouse admin console with this account.</p>
      <p class="error" role="alert">
        <strong>{session.error}</strong>
        {session.description && `: ${session.description}`}
      </p>
      <p>Log out, then log in again as an operator.</p>
      <button type="button" onClick={() => logOut(session.client, session.config)}>
        Log out
      </button>
    </main>
  );
}

function Shell({ session }: { session: Extract<Session, { kind: 'signed-in' }> }) {
  const route = useRoute();
  const [section = PAGES[0]!.path, ...rest] = route;
  const page = PAGES.find((p) => p.path === section);
  useEffect(() => {
    document.getElementById('page-title')?.focus();
  }, [section]);
  const who = session.user?.email ?? session.user?.name ?? 'operator';
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <p class="brand">Gatehouse admin console</p>
        <p class="who">
          Signed in as <strong>{who}</strong>{' '}
          <button type="button" onClick={() => logOut(session.client, session.config)}>
            Log out
          </button>
        </p>
      </header>
      <nav class="sections" aria-label="Sections">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <a href={href(p.path)} aria-current={p.path === section ? 'page' : undefined}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {page ? <page.component route={rest} /> : <p role="alert">There is no page “{section}”.</p>}
      </main>
    </div>
  );
}

async function start(root: HTMLElement): Promise<void> {
  const session = await signIn();
  if (session.kind === 'redirecting') return;
  // The static "Loading" placeholder of index.html goes: render() keeps what it did not create.
  root.replaceChildren();
  if (session.kind === 'refused') {
    render(<Refused session={session} />, root);
    return;
  }
  // Same origin as the console: the page's CSP allows `connect-src 'self'` only.
  const api = createApi(`${location.origin}/api/v2`, session.token);
  render(
    <ApiContext.Provider value={api}>
      <Shell session={session} />
    </ApiContext.Provider>,
    root,
  );
}

void start(document.getElementById('app')!);
