// Secrets at rest (API key secrets, webhook secrets, TOTP seeds) are sealed with AES-256-GCM under
// a master key kept in the data directory (created on first start, mode 0600). A copy of the
// database without that file reveals no secret.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static openOrCreate(dataDir: string): SecretBox {
    const file = path.join(dataDir, 'master.key');
    try {
      const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
      if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
      return new SecretBox(key);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      const key = randomBytes(32);
      fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      return new SecretBox(key);
    }
  }

  /** Tells two boxes' keys apart without revealing either (cluster nodes must share one). */
  fingerprint(): string {
    return createHmac('sha256', this.key).update('tas master key fingerprint').digest('hex');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('sealed secret has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
