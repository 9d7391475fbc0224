import type { IncomingMessage } from 'node:http';
import { allowedHosts, guardRequest } from '../../src/dev/request-guard';

/**
 * Issue 20 item 5, unit level: which Host and Origin values the playground accepts. The HTTP-level
 * refusals are in dev-server-safety.test.ts; this covers the host forms (IPv6, a configured host).
 */
function request(headers: Record<string, string>, method = 'GET'): IncomingMessage {
  return { headers, method } as unknown as IncomingMessage;
}

function refusal(hosts: Set<string>, headers: Record<string, string>, method?: string): string {
  try {
    guardRequest(request(headers, method), hosts);
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('allowedHosts / guardRequest', () => {
  it('accepts the loopback names with the port, and the configured host', () => {
    expect([...allowedHosts('127.0.0.1', 4111)].sort()).toEqual([
      '127.0.0.1:4111',
      '[::1]:4111',
      'localhost:4111',
    ]);
    expect(allowedHosts('::1', 80).has('[::1]:80')).toBe(true);
    expect(allowedHosts('devbox.lan', 4111).has('devbox.lan:4111')).toBe(true);
  });

  it('checks Host, then Origin (own origin only, http, no path), then a JSON POST', () => {
    const hosts = allowedHosts('127.0.0.1', 4111);
    expect(refusal(hosts, { host: '127.0.0.1:4111' })).toBe('ok');
    expect(refusal(hosts, { host: 'LOCALHOST:4111', origin: 'http://localhost:4111' })).toBe('ok');
    expect(refusal(hosts, { host: '[::1]:4111', origin: 'http://[::1]:4111' })).toBe('ok');
    expect(refusal(hosts, {})).toBe('FORBIDDEN_HOST');
    expect(refusal(hosts, { host: 'attacker.example:4111' })).toBe('FORBIDDEN_HOST');
    expect(refusal(hosts, { host: '127.0.0.1' })).toBe('FORBIDDEN_HOST');
    for (const origin of [
      'null',
      'http://attacker.example',
      'https://127.0.0.1:4111',
      'http://127.0.0.1:4112',
      'http://127.0.0.1:4111/',
      'http://user@127.0.0.1:4111',
      'file://',
    ]) {
      expect([origin, refusal(hosts, { host: '127.0.0.1:4111', origin })]).toEqual([
        origin,
        'FORBIDDEN_ORIGIN',
      ]);
    }
    const post = { host: '127.0.0.1:4111', origin: 'http://127.0.0.1:4111' };
    expect(
      refusal(hosts, { ...post, 'content-type': 'application/json; charset=utf-8' }, 'POST'),
    ).toBe('ok');
    expect(refusal(hosts, { ...post, 'content-type': 'text/plain' }, 'POST')).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });
});
