/**
 * The push waiting page's script (mfa.ts `challengeBody`), as progressive
 * enhancement, like the "Show password" control (./password-toggle.ts).
 *
 * Without script the page waits for the user: its "I've approved it" button
 * posts the transaction to /mfa, which answers as the device left it. With
 * script, this static script (the same bytes on every page: the status URL
 * and the bound travel in the form's `data-push-status`/`data-push-seconds`)
 * asks the status route (../interaction/steps/mfa.ts, `GET /mfa/push-status`)
 * every PUSH_WAIT_INTERVAL seconds and, once the push is no longer pending,
 * submits the form as if the button had been pressed. It stops after the
 * challenge's lifetime, on an error or on any other answer; nothing reloads
 * (a meta refresh would be a timed reload, WCAG 2.2.1).
 *
 * It is inline and allowed by its SHA-256 in `script-src` (html.ts
 * `renderPage`), with `connect-src 'self'` for its requests, only on the
 * pages that have such a form.
 */

/** The attribute that marks the waiting page's form: its value is the status URL. */
export const PUSH_WAIT_ATTRIBUTE = 'data-push-status';

/** How the waiting form starts, written by mfa.ts: renderPage adds the script (and connect-src) when a page has one. */
export const PUSH_WAIT_START = `<form method="post" action="/mfa" ${PUSH_WAIT_ATTRIBUTE}=`;

/** Seconds between two questions to the status route. */
export const PUSH_WAIT_INTERVAL = 3;

export const PUSH_WAIT_SCRIPT = `(() => {
  const form = document.querySelector('form[${PUSH_WAIT_ATTRIBUTE}]');
  if (!(form instanceof HTMLFormElement)) return;
  const url = form.getAttribute('${PUSH_WAIT_ATTRIBUTE}') || '';
  const until = Date.now() + 1000 * (Number(form.dataset.pushSeconds) || 0);
  const ask = () => {
    if (Date.now() >= until) return;
    fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin', redirect: 'error' })
      .then((response) => (response.ok ? response.json() : undefined))
      .then((answer) => {
        if (answer && answer.status === 'pending') setTimeout(ask, ${PUSH_WAIT_INTERVAL * 1000});
        else if (answer && answer.status === 'done') form.requestSubmit();
      })
      .catch(() => undefined);
  };
  setTimeout(ask, ${PUSH_WAIT_INTERVAL * 1000});
})();`;
