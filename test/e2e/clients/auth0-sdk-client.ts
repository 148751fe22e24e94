/**
 * Drives the official `auth0` SDK against a running Gatehouse and prints what
 * happened as one JSON document on stdout; test/e2e/auth0-sdk.test.ts runs it
 * as its own process with NODE_EXTRA_CA_CERTS=<data dir>/tls/cert.pem (read by
 * Node only at start-up), so the SDK's own fetch trusts the server for real.
 *
 * Usage: node --import tsx auth0-sdk-client.ts '{"domain":…,"clientId":…,"clientSecret":…}'
 */
import { ManagementClient, Management, ManagementError } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
  /** Suffix that makes the identifiers of this run unique. */
  suffix: string;
  /** Stop after the first list call (used to check that an untrusted certificate is refused). */
  listOnly?: boolean;
}

interface RecordedRequest {
  method: string;
  url: string;
  status: number;
}

export interface StepError {
  name: string;
  message: string;
  statusCode: number | undefined;
  body: unknown;
  isManagementError: boolean;
  isNotFoundError: boolean;
  isConflictError: boolean;
  isUnauthorizedError: boolean;
  isBadRequestError: boolean;
  cause?: string;
  causeCode?: string;
}

export type Step = { ok: true; value: unknown } | { ok: false; error: StepError };

export interface Auth0SdkRun {
  steps: Record<string, Step>;
  requests: RecordedRequest[];
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const requests: RecordedRequest[] = [];
const steps: Record<string, Step> = {};

/** The global fetch, recording every request the SDK makes (token and Management API alike). */
const recordingFetch: typeof fetch = async (resource, init) => {
  const url = resource instanceof Request ? resource.url : String(resource);
  const method = init?.method ?? (resource instanceof Request ? resource.method : 'GET');
  const response = await fetch(resource, init);
  requests.push({ method, url, status: response.status });
  return response;
};

function describe(error: unknown): StepError {
  const e = error as Error & { statusCode?: number; body?: unknown; cause?: unknown };
  return {
    name: e?.name ?? typeof error,
    message: e?.message ?? String(error),
    statusCode: e?.statusCode,
    body: e?.body,
    isManagementError: error instanceof ManagementError,
    isNotFoundError: error instanceof Management.NotFoundError,
    isConflictError: error instanceof Management.ConflictError,
    isUnauthorizedError: error instanceof Management.UnauthorizedError,
    isBadRequestError: error instanceof Management.BadRequestError,
    ...(e?.cause !== undefined && { cause: String((e.cause as Error)?.message ?? e.cause) }),
    ...(typeof (e?.cause as { code?: unknown })?.code === 'string' && { causeCode: (e.cause as { code: string }).code }),
  };
}

async function step<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    const value = await run();
    steps[name] = { ok: true, value: value === undefined ? null : value };
    return value;
  } catch (error) {
    steps[name] = { ok: false, error: describe(error) };
    return undefined;
  }
}

const management = new ManagementClient({
  domain: input.domain,
  clientId: input.clientId,
  clientSecret: input.clientSecret,
  maxRetries: 0,
  timeoutInSeconds: 20,
  fetch: recordingFetch,
});

const identifier = `https://sdk-api-${input.suffix}.example.com/`;

function finish(): never {
  const run: Auth0SdkRun = { steps, requests };
  process.stdout.write(JSON.stringify(run) + '\n');
  process.exit(0);
}

await step('listResourceServers', async () => {
  const page = await management.resourceServers.list();
  return { data: page.data, response: page.response, hasNextPage: page.hasNextPage() };
});
if (input.listOnly) finish();

await step('listResourceServersByIdentifier', async () => {
  const page = await management.resourceServers.list({ identifiers: [identifier] });
  return { data: page.data };
});

const created = await step('createResourceServer', () =>
  management.resourceServers.create({
    identifier,
    name: `SDK API ${input.suffix}`,
    scopes: [
      { value: 'read:things', description: 'Read things' },
      { value: 'write:things', description: 'Write things' },
    ],
    token_lifetime: 3600,
  }),
);

await step('getResourceServer', () => management.resourceServers.get(created!.id!));
await step('getResourceServerByIdentifier', () => management.resourceServers.get(identifier));

await step('createDuplicateResourceServer', () => management.resourceServers.create({ identifier, name: 'Duplicate' }));

await step('updateResourceServer', () =>
  management.resourceServers.update(created!.id!, {
    name: `SDK API ${input.suffix} (renamed)`,
    scopes: [
      { value: 'read:things', description: 'Read things' },
      { value: 'write:things', description: 'Write things' },
      { value: 'delete:things', description: 'Delete things' },
    ],
  }),
);

const grant = await step('createClientGrant', () =>
  management.clientGrants.create({ client_id: input.clientId, audience: identifier, scope: ['read:things'] }),
);

await step('createDuplicateClientGrant', () =>
  management.clientGrants.create({ client_id: input.clientId, audience: identifier, scope: ['read:things'] }),
);

await step('createClientGrantUnknownAudience', () =>
  management.clientGrants.create({ client_id: input.clientId, audience: `${identifier}nope`, scope: ['read:things'] }),
);

await step('updateClientGrantUndefinedScope', () => management.clientGrants.update(grant!.id!, { scope: ['fly:things'] }));

await step('listClientGrantsForAudience', async () => {
  const page = await management.clientGrants.list({ audience: identifier });
  return { data: page.data, hasNextPage: page.hasNextPage() };
});

await step('updateClientGrant', () => management.clientGrants.update(grant!.id!, { scope: ['read:things', 'write:things'] }));
await step('getClientGrant', () => management.clientGrants.get(grant!.id!));

/** The grant at work: a token for the new API, fetched without the SDK (trust still via NODE_EXTRA_CA_CERTS). */
await step('tokenForNewApi', async () => {
  const response = await fetch(`https://${input.domain}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: input.clientId,
      client_secret: input.clientSecret,
      audience: identifier,
    }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
});

await step('deleteClientGrant', () => management.clientGrants.delete(grant!.id!));
await step('getDeletedClientGrant', () => management.clientGrants.get(grant!.id!));

await step('deleteResourceServer', () => management.resourceServers.delete(created!.id!));
await step('getDeletedResourceServer', () => management.resourceServers.get(created!.id!));
await step('getMissingResourceServer', () => management.resourceServers.get('this-resource-server-does-not-exist'));

// A client with a wrong secret: the SDK's own token request fails, typed as ManagementError.
const wrong = new ManagementClient({
  domain: input.domain,
  clientId: input.clientId,
  clientSecret: `${input.clientSecret}-wrong`,
  maxRetries: 0,
  timeoutInSeconds: 20,
});
await step('listWithWrongSecret', async () => (await wrong.resourceServers.list()).data);

// A static token that is not a valid JWT of this tenant: the Management API's 401, typed.
const bogus = new ManagementClient({
  domain: input.domain,
  token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
  maxRetries: 0,
  timeoutInSeconds: 20,
});
await step('listWithBogusToken', async () => (await bogus.resourceServers.list()).data);

finish();
