// The password pool's worker (piscina runs it by file name, so it is loaded from dist/): one scrypt
// verification per task, off the main thread.
import { verifyPassword } from '../base/password.js';

export interface VerifyTask { readonly password: string; readonly stored: string }

export default function verify(task: VerifyTask): Promise<boolean> {
  return verifyPassword(task.password, task.stored);
}
