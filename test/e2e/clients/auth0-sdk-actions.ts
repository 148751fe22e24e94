/**
 * Drives the official `auth0` SDK through Actions and token exchange
 * profiles, printing one JSON result; test/e2e/deploy-cli-actions.test.ts
 * runs it as its own process with NODE_EXTRA_CA_CERTS so TLS verification is
 * real.
 *
 * Usage: node --import tsx auth0-sdk-actions.ts '{"domain":…,"clientId":…,"clientSecret":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const out: Record<string, unknown> = {};

async function refusal(call: () => Promise<unknown>): Promise<{ statusCode?: number; message?: string }> {
  try {
    await call();
    return {};
  } catch (error) {
    const e = error as { statusCode?: number; body?: { message?: string } };
    return { statusCode: e.statusCode, message: e.body?.message };
  }
}

const first = await management.actions.create({
  name: 'sdk-post-login',
  supported_triggers: [{ id: 'post-login', version: 'v3' }],
  code: 'exports.onExecutePostLogin = async (event, api) => {};',
  secrets: [{ name: 'API_KEY', value: 'sdk-secret-value' }],
});
out.created = first;
const second = await management.actions.create({ name: 'sdk-cc', supported_triggers: [{ id: 'credentials-exchange' }], code: 'exports.onExecuteCredentialsExchange = async () => {};', deploy: true });
out.secondDeployed = second.deployed_version?.number;
const names: string[] = [];
// per_page 1: the SDK pages through them.
for await (const action of await management.actions.list({ per_page: 1 })) names.push(action.name ?? '');
out.names = names;
out.got = (await management.actions.get(first.id!)).name;
out.updated = (await management.actions.update(first.id!, { code: 'exports.onExecutePostLogin = async (event, api) => { /* v1 */ };' })).all_changes_deployed;
const v1 = await management.actions.deploy(first.id!);
out.v1 = { number: v1.number, status: v1.status };
await management.actions.update(first.id!, { code: 'exports.onExecutePostLogin = async (event, api) => { /* v2 */ };' });
await management.actions.deploy(first.id!);
const versions = await management.actions.versions.list(first.id!);
out.versions = versions.data.map((v) => v.number);
out.versionCode = (await management.actions.versions.get(first.id!, v1.id!)).code;
out.rollback = (await management.actions.versions.deploy(first.id!, v1.id!, {})).number;
out.deployedCode = (await management.actions.get(first.id!)).deployed_version?.code;
out.triggers = (await management.actions.triggers.list()).triggers?.map((t) => `${t.id}@${t.version}`);
const bound = await management.actions.triggers.bindings.updateMany('post-login', { bindings: [{ ref: { type: 'action_id', value: first.id! }, display_name: 'SDK' }] });
out.bound = bound.bindings?.map((b) => [b.display_name, b.action?.name]);
out.bindings = (await management.actions.triggers.bindings.list('post-login')).data.map((b) => b.action?.name);
out.execution = await refusal(() => management.actions.executions.get('exe_does_not_exist'));
const pending = await management.actions.create({
  name: 'sdk-pending',
  supported_triggers: [{ id: 'post-login' }],
  code: 'exports.onExecutePostLogin = async () => {};',
  dependencies: [{ name: 'gh-nowhere-to-be-found', version: '1.0.0' }],
});
out.pendingStatus = pending.status;
out.deployPending = await refusal(() => management.actions.deploy(pending.id!));
out.missing = await refusal(() => management.actions.get('00000000-0000-4000-8000-000000000000'));

const profile = await management.tokenExchangeProfiles.create({ name: 'SDK profile', subject_token_type: 'https://sdk.example/token', action_id: (await management.actions.create({ name: 'sdk-cte', supported_triggers: [{ id: 'custom-token-exchange' }] })).id!, type: 'custom_authentication' });
out.profile = profile;
out.profiles = (await management.tokenExchangeProfiles.list()).data.map((p) => p.name);
// The SDK types this PATCH's answer as empty (the document gives it no body): read it back.
await management.tokenExchangeProfiles.update(profile.id!, { name: 'SDK renamed' });
out.profileGot = (await management.tokenExchangeProfiles.get(profile.id!)).name;
await management.tokenExchangeProfiles.delete(profile.id!);
out.profileGone = await refusal(() => management.tokenExchangeProfiles.get(profile.id!));

out.boundDelete = await refusal(() => management.actions.delete(first.id!));
const all: string[] = [];
for await (const action of await management.actions.list({ per_page: 50 })) all.push(action.id!);
for (const id of all) await management.actions.delete(id, { force: true });
out.left = (await management.actions.list()).data.length;
process.stdout.write(JSON.stringify(out));
