// Exact unit conversions (OrderQty in units = lots × contract size) and the self-signed certificate.
import { X509Certificate, createPublicKey } from 'node:crypto';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { centilotsOf, contractDecimal, decimalText, ticksOf, unitsOf } from '../../src/fix/app/units.js';
import { GENERATED_CERT_FILE, GENERATED_KEY_FILE, fixTls, selfSignedCertificate } from '../../src/fix/tls-cert.js';
import { BTCUSD, EURUSD, T0 } from './support/harness.js';

describe('units', () => {
  const eur = contractDecimal(EURUSD);
  const btc = contractDecimal(BTCUSD);
  const half = contractDecimal({ ...BTCUSD, contractSize: 0.5 });

  it('round-trips every volume through units exactly, for whole and fractional contract sizes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom(eur, btc, half), (centilots, contract) => {
      expect(centilotsOf(unitsOf(centilots, contract), contract)).toBe(centilots);
    }));
  });

  it('writes units without trailing zeros and refuses quantities that are not whole centilots', () => {
    expect(decimalText(unitsOf(1, eur))).toBe('1000');
    expect(decimalText(unitsOf(1, btc))).toBe('0.01');
    expect(decimalText(unitsOf(3, half))).toBe('0.015');
    expect(centilotsOf({ units: 1500, scale: 0 }, eur)).toBeNull();
    expect(centilotsOf({ units: 1, scale: 3 }, btc)).toBeNull();
    expect(centilotsOf({ units: 0, scale: 0 }, btc)).toBeNull();
    expect(centilotsOf({ units: -100000, scale: 0 }, eur)).toBeNull();
    expect(centilotsOf({ units: 1000000, scale: 1 }, eur)).toBe(100);
  });

  it('takes prices with at most the symbol\'s digits', () => {
    expect(ticksOf({ units: 108_500, scale: 5 }, EURUSD)).toBe(108_500);
    expect(ticksOf({ units: 1085, scale: 3 }, EURUSD)).toBe(108_500);
    expect(ticksOf({ units: 1_085_001, scale: 6 }, EURUSD)).toBeNull();
    expect(ticksOf({ units: -1, scale: 0 }, EURUSD)).toBeNull();
  });
});

describe('self-signed certificate', () => {
  it('is a valid X.509 v3 ECDSA P-256 certificate for localhost, 127.0.0.1 and ::1, signed by its own key', () => {
    const pair = selfSignedCertificate(T0);
    const cert = new X509Certificate(pair.cert);
    expect(cert.subject).toBe('CN=TAS FIX gateway');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(cert.verify(createPublicKey(pair.key))).toBe(true);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(new Date(cert.validFrom).getTime()).toBe(T0 - 3600_000);
    expect(new Date(cert.validTo).getUTCFullYear()).toBe(2036);
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
  });

  it('is generated into the data dir once and reused; configured files win', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-cert-'));
    try {
      const first = fixTls(dir, { cert: null, key: null }, T0);
      expect(first.origin).toBe('generated');
      expect((fs.statSync(path.join(dir, GENERATED_KEY_FILE)).mode & 0o777).toString(8)).toBe('600');
      const again = fixTls(dir, { cert: null, key: null }, T0 + 1000);
      expect([again.origin, again.cert]).toEqual(['data_dir', first.cert]);
      const configured = fixTls(dir, { cert: path.join(dir, GENERATED_CERT_FILE), key: path.join(dir, GENERATED_KEY_FILE) }, T0);
      expect([configured.origin, configured.cert]).toEqual(['config', first.cert]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
