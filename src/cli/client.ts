// The console's JSON API as `tas` calls it: the operator bearer token, JSON in and out, and the
// documented error body turned into an error that names the error, its field and the request id.

export class ApiCallError extends Error {
  constructor(readonly status: number, readonly errorName: string, message: string, readonly field: string | undefined, readonly requestId: string | undefined) {
    super(message);
  }
}

export class ConsoleClient {
  constructor(private readonly baseUrl: string, private readonly token: string) {}

  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(`/console/api${path}`, this.baseUrl), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let data: unknown = null;
    try { data = text === '' ? null : JSON.parse(text); } catch { data = null; }
    if (res.ok) return data;
    const error = (data as { error?: { name?: string; message?: string; field?: string; request_id?: string } } | null)?.error;
    throw new ApiCallError(res.status, error?.name ?? 'error', error?.message ?? (text.slice(0, 200) || res.statusText), error?.field, error?.request_id);
  }
}
