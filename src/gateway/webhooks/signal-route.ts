// `POST /v1/signal/{webhook_id}` on the HTTP listener (DECISIONS "Running it"). No authentication
// headers: the webhook secret is the credential. TradingView sends `application/json` only when the
// alert text is valid JSON and `text/plain` otherwise, so the body is parsed as JSON whatever the
// Content-Type says.
import type { TemplatedApp } from 'uWebSockets.js';
import { clientIp } from '../auth/client-ip.js';
import type { GatewayContext } from '../context.js';
import { Exchange, serve } from '../http.js';
import { MAX_SIGNAL_BODY_BYTES, type SignalDesk } from './signal-desk.js';

const ENDPOINT = 'POST /v1/signal/{webhook_id}';

export function registerSignalRoute(app: TemplatedApp, ctx: Pick<GatewayContext, 'log' | 'trustedProxies' | 'metrics'>, desk: SignalDesk): void {
  app.post('/v1/signal/:id', (res, req) => {
    const ex = Exchange.open(res, req);
    if (!ex) return;
    ex.whenSent((status) => ctx.metrics.observeRequest(ENDPOINT, status, ex.startedNs));
    // The request object is gone after the first await: read everything now.
    const webhookId = req.getParameter(0) ?? '';
    const signature = req.getHeader('x-svc-signature');
    const ip = clientIp(ex.remoteAddress(), req.getHeader('x-forwarded-for'), ctx.trustedProxies);
    // uWS wants the body handler attached before the handler returns.
    const body = ex.readBody(MAX_SIGNAL_BODY_BYTES);
    // Read errors surface through `body()`; this keeps an early one from counting as unhandled.
    body.catch(() => undefined);
    serve(ex, (err) => ctx.log.error({ err, webhookId }, 'signal route failed'), async () => {
      const answer = await desk.handle({
        webhookId, requestId: ex.requestId, startedNs: ex.startedNs, signature, ip, body: () => body,
      });
      ex.json(answer.status, answer.body, answer.headers);
    });
  });
}
