import { describe, expect, it } from '@jest/globals';
import { apiBaseProblem } from './api-base.ts';

describe('apiBaseProblem: where a secret may be sent', () => {
  it('takes https: URLs, with a port and a path', () => {
    for (const ok of ['https://api.stripe.com', 'https://api.example:8443/v2/', 'https://127.0.0.1'])
      expect([ok, apiBaseProblem(ok, false)]).toEqual([ok, null]);
  });

  it('refuses other schemes, credentials in the URL and what is no URL', () => {
    for (const bad of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/plain,x',
      'ftp://api.example/',
      'http://api.example/',
      'https://user:pw@api.example/',
      'api.example',
      '',
      42,
    ])
      expect([bad, apiBaseProblem(bad, true)]).toEqual([bad, expect.any(String)]);
  });

  it('takes plain http: to this machine only when allowed', () => {
    for (const local of ['http://127.0.0.1:4010', 'http://localhost:4010/', 'http://[::1]:4010', 'http://127.8.9.10']) {
      expect([local, apiBaseProblem(local, true)]).toEqual([local, null]);
      expect([local, apiBaseProblem(local, false)]).toEqual([local, 'must be an https: URL']);
    }
    for (const near of ['http://127.0.0.1.nip.io', 'http://localhost.example', 'http://10.0.0.1', 'http://0.0.0.0'])
      expect([near, apiBaseProblem(near, true)]).toEqual([near, expect.any(String)]);
  });
});
