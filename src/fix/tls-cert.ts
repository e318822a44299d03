// The FIX listener's certificate (DECISIONS "Running it": FIX is TLS always; with no certificate
// configured a self-signed one is generated into the data dir on first start and reused after).
// node:crypto makes the ECDSA P-256 key pair and signs; the X.509 v3 certificate around it is
// built here with a minimal DER encoder (definite lengths, the few universal types a certificate
// needs). Subject and issuer CN "TAS FIX gateway", valid from an hour ago for ten years,
// subjectAltName localhost, 127.0.0.1 and ::1, key usage digitalSignature, extended key usage
// serverAuth. Clients pin it by passing the PEM as their trusted CA.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TlsFiles } from '../config/types.js';
import type { UnixMs } from '../engine/types.js';

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

const VALIDITY_YEARS = 10;
const BACKDATE_MS = 3600_000;
const COMMON_NAME = 'TAS FIX gateway';

// --- DER --------------------------------------------------------------------------------------

function tlv(tag: number, content: Uint8Array): Buffer {
  const len = content.length;
  const lengthBytes: number[] = [];
  if (len < 0x80) lengthBytes.push(len);
  else {
    for (let n = len; n > 0; n = Math.floor(n / 256)) lengthBytes.unshift(n & 0xff);
    lengthBytes.unshift(0x80 | lengthBytes.length);
  }
  return Buffer.concat([Buffer.from([tag, ...lengthBytes]), content]);
}

const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Uint8Array): Buffer => tlv(0xa0 | n, content);
const octetString = (bytes: Uint8Array): Buffer => tlv(0x04, bytes);
const bitString = (bytes: Uint8Array, unusedBits = 0): Buffer => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));
const utf8String = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
const boolTrue = (): Buffer => tlv(0x01, Buffer.from([0xff]));

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [(parts[0] ?? 0) * 40 + (parts[1] ?? 0)];
  for (const part of parts.slice(2)) {
    const base128 = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) base128.unshift((v & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** A non-negative INTEGER from big-endian bytes (a 0 byte in front when the top bit is set). */
function unsignedInteger(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function time(ms: number): Buffer {
  const iso = new Date(ms).toISOString();
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const year = Number(iso.slice(0, 4));
  return year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'latin1')) : tlv(0x18, Buffer.from(`${digits}Z`, 'latin1'));
}

function extension(id: string, critical: boolean, value: Uint8Array): Buffer {
  return critical ? sequence(oid(id), boolTrue(), octetString(value)) : sequence(oid(id), octetString(value));
}

function ipBytes(ip: string): Buffer {
  if (ip.includes(':')) {
    if (ip !== '::1') throw new RangeError(`only ::1 is supported as an IPv6 SAN, got ${ip}`);
    const b = Buffer.alloc(16);
    b[15] = 1;
    return b;
  }
  return Buffer.from(ip.split('.').map(Number));
}

// --- certificate ------------------------------------------------------------------------------

export interface CertificateNames {
  readonly dns: readonly string[];
  readonly ips: readonly string[];
}

export interface PemPair {
  readonly cert: string;
  readonly key: string;
}

export const LOCAL_NAMES: CertificateNames = { dns: ['localhost'], ips: ['127.0.0.1', '::1'] };

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

export function selfSignedCertificate(nowMs: UnixMs, names: CertificateNames = LOCAL_NAMES): PemPair {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x01;
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const name = sequence(set(sequence(oid(OID.commonName), utf8String(COMMON_NAME))));
  const notAfter = new Date(nowMs);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALIDITY_YEARS);
  const altNames = sequence(
    ...names.dns.map((d) => tlv(0x82, Buffer.from(d, 'latin1'))),
    ...names.ips.map((ip) => tlv(0x87, ipBytes(ip))),
  );
  const extensions = sequence(
    extension(OID.keyUsage, true, bitString(Buffer.from([0x80]), 7)),
    extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth))),
    extension(OID.subjectAltName, false, altNames),
  );
  const tbs = sequence(
    explicit(0, unsignedInteger(Buffer.from([2]))),
    unsignedInteger(serial),
    algorithm,
    name,
    sequence(time(nowMs - BACKDATE_MS), time(notAfter.getTime())),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, algorithm, bitString(signature));
  return { cert: pem('CERTIFICATE', certificate), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

// --- files ------------------------------------------------------------------------------------

export const GENERATED_CERT_FILE = 'fix-tls-cert.pem';
export const GENERATED_KEY_FILE = 'fix-tls-key.pem';

export interface FixTls extends PemPair {
  /** `config`: fix.tls.cert/key; `generated`: made now; `data_dir`: made on an earlier start. */
  readonly origin: 'config' | 'generated' | 'data_dir';
  readonly certPath: string;
}

/** The configured certificate, else the one generated into the data dir (made on first use). */
export function fixTls(dataDir: string, files: TlsFiles, nowMs: UnixMs): FixTls {
  if (files.cert !== null && files.key !== null) {
    return { cert: fs.readFileSync(files.cert, 'utf8'), key: fs.readFileSync(files.key, 'utf8'), origin: 'config', certPath: files.cert };
  }
  const certPath = path.join(dataDir, GENERATED_CERT_FILE);
  const keyPath = path.join(dataDir, GENERATED_KEY_FILE);
  if (fs.existsSync(certPath) && fs.existsSync(keyPath)) {
    return { cert: fs.readFileSync(certPath, 'utf8'), key: fs.readFileSync(keyPath, 'utf8'), origin: 'data_dir', certPath };
  }
  const pair = selfSignedCertificate(nowMs);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(keyPath, pair.key, { mode: 0o600 });
  fs.writeFileSync(certPath, pair.cert, { mode: 0o644 });
  return { ...pair, origin: 'generated', certPath };
}
