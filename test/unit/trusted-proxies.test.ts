import t from 'tap';
import { TrustedProxies } from '../../src/http/forwarded';

t.test('the client address comes from X-Forwarded-For only as far as trusted proxies appended it', async (t) => {
  const proxies = new TrustedProxies(['127.0.0.0/8', '10.0.0.0/8', '::1']);
  t.equal(proxies.clientAddress('198.51.100.1', '203.0.113.7'), '198.51.100.1', 'an untrusted peer: its own address');
  t.equal(proxies.clientAddress('127.0.0.1', ''), '127.0.0.1', 'a proxy that forwards nothing');
  t.equal(proxies.clientAddress('127.0.0.1', '203.0.113.7'), '203.0.113.7', 'one trusted proxy');
  t.equal(
    proxies.clientAddress('127.0.0.1', '1.1.1.1, 203.0.113.7, 10.0.0.5'),
    '203.0.113.7',
    'a chain: what the client wrote itself is skipped',
  );
  t.equal(proxies.clientAddress('127.0.0.1', '10.0.0.9, 10.0.0.5'), '10.0.0.9', 'only proxies: the farthest');
  t.equal(proxies.clientAddress('127.0.0.1', 'garbage'), '127.0.0.1', 'not an address: the peer');
  t.equal(
    proxies.clientAddress('0000:0000:0000:0000:0000:ffff:7f00:0001', '203.0.113.7'),
    '203.0.113.7',
    'an IPv4-mapped peer (listening on ::)',
  );
  t.equal(proxies.clientAddress('0000:0000:0000:0000:0000:0000:0000:0001', '2001:db8::7'), '2001:db8::7', 'IPv6 loopback');
});

t.test('HTTPS is believed only from a trusted peer, as the first proxy saw it', async (t) => {
  const proxies = new TrustedProxies(['127.0.0.1']);
  t.equal(proxies.isSecure('127.0.0.1', 'https'), true);
  t.equal(proxies.isSecure('127.0.0.1', 'HTTPS'), true);
  t.equal(proxies.isSecure('127.0.0.1', 'http'), false);
  t.equal(proxies.isSecure('127.0.0.1', 'https, http'), true);
  t.equal(proxies.isSecure('127.0.0.2', 'https'), false);
  t.equal(new TrustedProxies([]).isSecure('127.0.0.1', 'https'), false, 'none trusted');
});
