/*
 * The test SPA: auth0-spa-js's client behind `window.spa`, one function per
 * call the browser tests make. Each shows its outcome on the page (for the
 * screenshots) and returns it as plain data, `{ ok: true, value }` or
 * `{ ok: false, error, error_description }`, since errors do not cross
 * page.evaluate with their fields.
 */
(() => {
  'use strict';
  let client;

  function show(step, outcome) {
    document.getElementById('step').textContent = step;
    const result = document.getElementById('result');
    result.className = outcome.ok ? '' : 'failed';
    result.textContent = JSON.stringify(outcome, null, 2);
  }

  async function run(step, action) {
    let outcome;
    try {
      outcome = { ok: true, value: (await action()) ?? null };
    } catch (e) {
      outcome = { ok: false, error: e.error ?? e.name, error_description: e.error_description ?? e.message };
    }
    show(step, outcome);
    return outcome;
  }

  window.spa = {
    create: (options) =>
      run('createAuth0Client', async () => {
        client = await auth0.createAuth0Client(options);
        return 'created';
      }),
    // Navigates away to /authorize: the caller waits for the login page, not for this promise.
    loginWithRedirect: (options) => run('loginWithRedirect', () => client.loginWithRedirect(options)),
    handleRedirectCallback: () =>
      run('handleRedirectCallback', async () => {
        const result = await client.handleRedirectCallback();
        // As an application does: the code and state leave the address bar.
        history.replaceState(null, '', '/');
        return result;
      }),
    getUser: () => run('getUser', () => client.getUser()),
    getTokenSilently: (options) => run('getTokenSilently', () => client.getTokenSilently(options)),
    // Navigates away to /v2/logout.
    logout: (options) => run('logout', () => client.logout(options)),
  };
})();
