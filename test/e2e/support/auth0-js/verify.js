/*
 * The application's cross-origin verification page (its client's
 * `cross_origin_loc`): auth0.js's crossOriginVerification() hands the
 * tenant's verification page the verifier kept by webAuth.login. The domain
 * and client id come from the page's query.
 */
(() => {
  'use strict';
  const query = new URLSearchParams(window.location.search);
  new auth0.WebAuth({ domain: query.get('domain'), clientID: query.get('client_id') }).crossOriginVerification();
})();
