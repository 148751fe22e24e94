/**
 * What the exporter of src/platform/tracing/sdk.ts lets out of a span's
 * attributes, whatever an instrumentation recorded (test/e2e/otel-traces.test.ts
 * checks the spans the real server sends).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactAttributes } from '../../src/platform/tracing/sdk.js';

test('URL attributes lose their query string and fragment; the query itself, headers and exception messages are dropped', () => {
  const redacted = redactAttributes({
    'url.full': 'https://id.example.com/userinfo?access_token=eyJsecret',
    'http.url': 'https://id.example.com/authorize?code=abc#state=xyz',
    'http.target': '/login/callback?code=abc&state=xyz',
    'url.original': '/userinfo?access_token=eyJsecret',
    'url.query': 'access_token=eyJsecret',
    'url.path': '/userinfo',
    'http.request.header.authorization': ['Bearer eyJsecret'],
    'http.response.header.set-cookie': ['session=abc'],
    'exception.message': 'invalid input syntax for type uuid: "s3cret"',
    'exception.stacktrace': 'Error: s3cret\n    at …',
    'exception.type': 'DatabaseError',
    'http.response.status_code': 200,
  });
  assert.deepEqual(redacted, {
    'url.full': 'https://id.example.com/userinfo',
    'http.url': 'https://id.example.com/authorize',
    'http.target': '/login/callback',
    'url.original': '/userinfo',
    'url.path': '/userinfo',
    'exception.type': 'DatabaseError',
    'http.response.status_code': 200,
  });
});

test('attributes without a query string are kept as they are', () => {
  const attributes = { 'url.full': 'https://id.example.com/oauth/token', 'http.route': '/oauth/token', 'gatehouse.oauth.grant_type': 'client_credentials' };
  assert.deepEqual(redactAttributes(attributes), attributes);
});
