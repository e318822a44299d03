// Replay refusal (DECISIONS "Authentication"): a signature already accepted for a POST or DELETE
// within the timestamp window gets 401. A signature covers its timestamp, so once the timestamp
// leaves the window the request is refused anyway and its entry can go.
export class ReplayGuard {
  /**
   * signature → expiry (Unix ms), pruned from the oldest insertion while expired. Client clocks
   * differ within the window, so an entry may outlive its expiry by up to one window: harmless,
   * since its timestamp is refused by then anyway.
   */
  private readonly seen = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  /** Records the signature; false when it was already accepted and is still in the window. */
  accept(signature: string, timestampMs: number, nowMs: number): boolean {
    this.prune(nowMs);
    if (this.seen.has(signature)) return false;
    this.seen.set(signature, timestampMs + this.windowMs);
    return true;
  }

  private prune(nowMs: number): void {
    for (const [sig, expiresMs] of this.seen) {
      if (expiresMs >= nowMs) break;
      this.seen.delete(sig);
    }
  }
}
