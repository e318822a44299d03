// A TOTP enrolment as `tas` prints it: the QR code of the otpauth URI drawn with block characters
// (two modules per character cell, light modules drawn, for the usual dark terminal), the URI and
// the secret to type by hand. `--json` prints the API's answer instead, with the code as SVG.
import QRCode from 'qrcode';

export interface EnrolmentJson { readonly secret: string; readonly otpauth_uri: string }

export async function enrolmentText(e: EnrolmentJson): Promise<string> {
  const qr = await QRCode.toString(e.otpauth_uri, { type: 'utf8', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#ffffff', light: '#000000' } });
  return [
    'scan with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis, ...):',
    qr,
    `otpauth URI: ${e.otpauth_uri}`,
    `secret (to type by hand; time-based, 6 digits, 30 s): ${e.secret}`,
  ].join('\n');
}
