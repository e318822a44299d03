// Bad input against the real server over TLS: whatever bytes a client sends, the FIX thread does
// not crash, other sessions keep being served, and the client gets a FIX answer or a disconnect.
// Also: TLS 1.3 only, and nothing but TLS.
import fc from 'fast-check';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_CERT_FILE } from '../../src/fix/tls-cert.js';
import { startServer, type RunningServer } from '../support/server.js';
import { frame, utc } from './support/harness.js';
import { RawClient } from './support/raw-client.js';

const SECRET = 'demo-secret-0123456789abcdef';
let server: RunningServer;
let ca: string;
let seq = 1;

const logonBody = (sender: string): string => `35=A|34=1|49=${sender}|52=${utc(Date.now())}|56=TASGW|98=0|108=30|141=Y|553=demo-key|554=${SECRET}|`;

async function loggedOn(): Promise<RawClient> {
  const c = await RawClient.connect(server.fixPort!, ca);
  c.write(frame(logonBody('TAS_100001')));
  expect((await c.next()).type).toBe('A');
  seq = 2;
  return c;
}

async function alive(c: RawClient, id: string): Promise<void> {
  c.write(frame(`35=1|34=${seq++}|49=TAS_100001|52=${utc(Date.now())}|56=TASGW|112=${id}|`));
  expect((await c.next((m) => m.type === '0')).get(112)).toBe(id);
}

beforeAll(async () => {
  server = await startServer({ config: { fix: { session: '24x7' } } });
  ca = fs.readFileSync(path.join(server.dataDir, GENERATED_CERT_FILE), 'utf8');
});
afterAll(async () => { await server.stop(); });

describe('transport', () => {
  it('speaks TLS 1.3 only, with the generated certificate trusted as CA', async () => {
    const c = await RawClient.connect(server.fixPort!, ca);
    expect(c.socket.getProtocol()).toBe('TLSv1.3');
    expect(c.socket.authorized).toBe(true);
    await c.end();
    await expect(RawClient.connect(server.fixPort!, ca, { maxVersion: 'TLSv1.2' })).rejects.toThrow();
  });

  it('drops a plaintext client', async () => {
    const socket = net.connect(server.fixPort!, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(frame(logonBody('TAS_100001')));
    await closed;
  });
});

describe('garbage from other connections', () => {
  it('never disturbs a logged-on session, whatever other clients send', async () => {
    const good = await loggedOn();
    await alive(good, 'before');
    const junk: Buffer[] = [
      Buffer.alloc(200_000, 0x41),
      Buffer.from('8=FIX.4.4\x019=999999999\x0135=A\x01', 'latin1'),
      Buffer.from(`8=FIX.4.4\x019=${'9'.repeat(40)}\x01`, 'latin1'),
      Buffer.from('8=FIX.4.4\x019=5\x0135=A\x0110=000\x01'.repeat(1000), 'latin1'),
      frame(`35=D|34=1|49=TAS_100001|52=${utc(Date.now())}|56=TASGW|11=x|`),
      frame(logonBody('TAS_100001'), 'FIX.4.2'),
      Buffer.from([0, 1, 2, 3, 255, 254, 0x38, 0x3d]),
    ];
    await fc.assert(fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 4096 }), async (bytes) => {
      const bad = await RawClient.connect(server.fixPort!, ca);
      bad.write(Buffer.from(bytes));
      bad.socket.destroy();
    }), { numRuns: 25 });
    for (const bytes of junk) {
      const bad = await RawClient.connect(server.fixPort!, ca);
      bad.write(bytes);
      await Promise.race([bad.closed, alive(good, 'during')]);
      bad.socket.destroy();
    }
    await alive(good, 'after');
    const health = await fetch(`${server.http}/health`);
    expect(health.status).toBe(200);
    await good.end();
  });

  it('answers a frame of another FIX version with Logout "Incorrect BeginString" and disconnects', async () => {
    const c = await RawClient.connect(server.fixPort!, ca);
    c.write(frame(logonBody('TAS_100001'), 'FIX.4.2'));
    expect((await c.next()).get(58)).toBe('Incorrect BeginString: this gateway speaks FIX.4.4 only');
    await c.closed;
  });
});

describe('garbage inside a session', () => {
  it('answers fuzzed fields with Reject, j, 8 or Logout and keeps serving the next session', async () => {
    const field = fc.tuple(fc.oneof(fc.integer({ min: 1, max: 1200 }), fc.constantFrom(11, 38, 40, 44, 54, 55, 59, 60, 262, 263, 710)),
      fc.stringMatching(/^[ -~]{0,12}$/));
    const body = fc.record({
      type: fc.constantFrom('D', 'F', 'G', 'V', 'AN', '0', '1', '2', '4', '3', 'Z', '*', 'AE'),
      fields: fc.array(field, { maxLength: 12 }),
    });
    await fc.assert(fc.asyncProperty(body, async ({ type, fields }) => {
      const c = await loggedOn();
      const extra = fields.map(([t, v]) => `${t}=${v}|`).join('');
      c.write(frame(`35=${type}|34=2|49=TAS_100001|52=${utc(Date.now())}|56=TASGW|${extra}`));
      seq = 3;
      // Whatever it made of that message, the session answers a TestRequest or has logged out saying why.
      c.write(frame(`35=1|34=${seq}|49=TAS_100001|52=${utc(Date.now())}|56=TASGW|112=probe|`));
      const answer = await Promise.race([c.next((m) => m.get(112) === 'probe' || m.type === '5'), c.closed.then(() => null)]);
      if (answer?.type === '5') expect(answer.get(58) ?? 'handshake').not.toBe('');
      for (const m of c.messages) expect(['0', '2', '3', '4', '5', '8', '9', 'j', 'W', 'Y', 'AO', 'AP']).toContain(m.type);
      await c.end();
    }), { numRuns: 60 });
    const last = await loggedOn();
    await alive(last, 'still');
    await last.end();
  });
});
