// `tck serve --hosted` and `tck token` in-process: the service the flags describe, the lines it
// prints, and a development token minted from the key file the service trusts.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintDevToken, rejectHostedOnlyFlags, startHostedService } from '../../src/cli/hosted-commands.js';
import { TckError } from '../../src/engine/errors.js';
import { request } from './helpers.js';

const keyFile = join(mkdtempSync(join(tmpdir(), 'tck-hosted-')), 'idp', 'dev-idp-key.json');
let saved: string | undefined;
beforeAll(() => {
  saved = process.env.TCK_DEV_IDP_KEY_FILE;
  process.env.TCK_DEV_IDP_KEY_FILE = keyFile;
});
afterAll(() => {
  if (saved === undefined) delete process.env.TCK_DEV_IDP_KEY_FILE;
  else process.env.TCK_DEV_IDP_KEY_FILE = saved;
});

describe('tck serve --hosted', () => {
  it('prints the URL and a working bootstrap key; tck token mints what its exchange accepts; --bridge-port shares the data', async () => {
    const service = await startHostedService({ host: '127.0.0.1', port: 0, bridgePort: 0, apiKey: 'nams_chosen_by_the_user_123' });
    try {
      const text = service.lines.join('\n');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)![1]!;
      const bridge = /bridge view of the same data listening on (http:\/\/\S+)/.exec(text)![1]!;
      expect(text).toContain('nams_chosen_by_the_user_123');
      expect(text).toContain('tck token');
      const key = 'nams_chosen_by_the_user_123';
      expect((await request(`${url}/v1/conversations`, 'GET', { token: key })).status).toBe(200);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);

      const subjectToken = await mintDevToken({ sub: 'dev', scope: 'read', ttl: 600, workspace: 'ws-dev' });
      const ex = await request(`${url}/v1/auth/exchange`, 'POST', { body: { subjectToken } });
      expect(ex.status).toBe(200);
      expect((await request(`${url}/v1/auth/api-keys`, 'GET', { token: ex.body.access_token })).body.workspaceId).toBe('ws-dev');

      await request(`${bridge}/add_message`, 'POST', { body: { session_id: 's-1', role: 'user', content: 'via the bridge' } });
      const got = await request(`${url}/v1/conversations/s-1/messages`, 'GET', { token: key });
      expect(got.body.messages.map((m: any) => m.content)).toEqual(['via the bridge']);
    } finally {
      await service.close();
    }
  });

  it('refuses a malformed --api-key, half an identity-provider configuration, and hosted flags without --hosted', async () => {
    await expect(startHostedService({ host: '127.0.0.1', port: 0, apiKey: 'secret' })).rejects.toThrow(TckError);
    await expect(startHostedService({ host: '127.0.0.1', port: 0, idpIssuer: 'https://idp.example' })).rejects.toThrow(/go together/);
    expect(() => rejectHostedOnlyFlags({ host: '127.0.0.1', apiKey: 'nams_x' })).toThrow('--api-key needs --hosted');
    expect(() => rejectHostedOnlyFlags({ host: '127.0.0.1' })).not.toThrow();
  });

  it('a port in use is a one-line usage error', async () => {
    const first = await startHostedService({ host: '127.0.0.1', port: 0 });
    try {
      const port = Number(/:(\d+) /.exec(first.lines[0]!)![1]);
      await expect(startHostedService({ host: '127.0.0.1', port })).rejects.toThrow(/port \d+ is already in use/);
    } finally {
      await first.close();
    }
  });
});
