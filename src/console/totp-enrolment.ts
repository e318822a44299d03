// Putting a TOTP secret into an authenticator app: a new random secret (160 bits, RFC 4226's
// recommended length), its otpauth:// URI (the Key Uri Format authenticator apps read) and that URI
// as a QR code in SVG (the `qrcode` library), for the console page to show and the CLI to print.
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { TOTP_STEP_MS } from '../base/totp.js';

export const TOTP_ISSUER = 'TAS';
const SECRET_BYTES = 20;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export interface Enrolment {
  /** Base32, for typing into an app by hand. */
  readonly secret: string;
  readonly otpauth_uri: string;
  /** The URI as a QR code, an SVG document. */
  readonly qr_svg: string;
}

export function base32Encode(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

export const newTotpSecret = (): string => base32Encode(randomBytes(SECRET_BYTES));

/** `otpauth://totp/TAS:alice?secret=…&issuer=TAS&algorithm=SHA1&digits=6&period=30`. */
export function otpauthUri(user: string, secret: string): string {
  const label = `${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(user)}`;
  const params = new URLSearchParams({ secret, issuer: TOTP_ISSUER, algorithm: 'SHA1', digits: '6', period: String(TOTP_STEP_MS / 1000) });
  return `otpauth://totp/${label}?${params.toString()}`;
}

export async function enrolment(user: string, secret: string): Promise<Enrolment> {
  const uri = otpauthUri(user, secret);
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauth_uri: uri, qr_svg: svg };
}
