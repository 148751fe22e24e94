/*
 * The test application: auth0.js's WebAuth behind `window.app`, one
 * function per call the browser tests make. Each shows its outcome on the
 * page (for the screenshots) and returns it as plain data, `{ ok: true,
 * value }` or `{ ok: false, error, error_description }`. The calls that
 * succeed by navigating away (login, passwordlessLogin) settle only on an
 * error.
 */
(() => {
  'use strict';
  let webAuth;

  function show(step, outcome) {
    document.getElementById('step').textContent = step;
    const result = document.getElementById('result');
    result.className = outcome.ok ? '' : 'failed';
    result.textContent = JSON.stringify(outcome, null, 2);
  }

  /** auth0.js's callback style as a promise of an outcome. */
  function run(step, call) {
    return new Promise((resolve) => {
      call((err, value) => {
        const outcome = err
          ? { ok: false, error: err.error || err.code || err.name || 'error', error_description: err.error_description || err.description || err.message || JSON.stringify(err) }
          : { ok: true, value: value === undefined ? null : value };
        show(step, outcome);
        resolve(outcome);
      });
    });
  }

  window.app = {
    create: (options) => {
      webAuth = new auth0.WebAuth(options);
      show('created', { ok: true, value: 'created' });
      return { ok: true, value: 'created' };
    },
    login: (options) => run('login', (cb) => webAuth.login(options, cb)),
    signup: (options) => run('signup', (cb) => webAuth.signup(options, cb)),
    passwordlessStart: (options) => run('passwordlessStart', (cb) => webAuth.passwordlessStart(options, cb)),
    passwordlessLogin: (options) => run('passwordlessLogin', (cb) => webAuth.passwordlessLogin(options, cb)),
    parseHash: () => run('parseHash', (cb) => webAuth.parseHash({}, cb)),
    checkSession: (options) => run('checkSession', (cb) => webAuth.checkSession(options || {}, cb)),
  };
})();
