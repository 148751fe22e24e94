/** Running auth0-deploy-cli (`a0deploy`, the real tool's bin with node) against a built server, as the e2e tests do. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, type ServerProcess } from '../../helpers/server-process.js';
import { runNode, type NodeRun } from './https.js';

export const A0DEPLOY_BIN = path.join(ROOT, 'node_modules/auth0-deploy-cli/lib/index.js');

/** Resource types the tool reads with no way to skip them, and the operation that serves each. */
export const UNSKIPPABLE: ReadonlyArray<[types: string[], path: string]> = [
  [['tenant', 'pages'], '/tenants/settings'],
  [['prompts'], '/prompts'],
  [['logStreams'], '/log-streams'],
  [['attackProtection'], '/attack-protection/brute-force-protection'],
];

/**
 * Runs `a0deploy <args>` in `work` with its config file; asserts it succeeded
 * and logged no error. Exports take their token with the client's
 * credentials (`config.json`), as the README says. Imports are given a token
 * (`config-token.json`, `AUTH0_ACCESS_TOKEN`): the tool takes its token
 * first, then validates the file for a while (a minute of CPU on a loaded
 * machine), and its first API call can then meet the token request's
 * keep-alive connection just as the server closes it (72 s idle).
 */
export async function a0deploy(server: ServerProcess, work: string, args: string[], success: string): Promise<NodeRun> {
  const config = args[0] === 'import' ? 'config-token.json' : 'config.json';
  const run = await runNode([A0DEPLOY_BIN, ...args, '-c', path.join(work, config)], {
    cwd: work,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile, FORCE_COLOR: '0', NO_COLOR: '1' },
    timeoutMs: 600_000,
  });
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 0, `a0deploy ${args.join(' ')} failed:\n${output}\n${server.output().slice(-3000)}`);
  assert.match(output, new RegExp(success));
  assert.doesNotMatch(output, / - error: /, output);
  return run;
}

/** Every file of a folder the tool wrote, by relative path, with its content (an export compared with another). */
export function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}
