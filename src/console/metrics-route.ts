// GET /metrics on the console listener: the Prometheus exposition of the service's metrics
// (docs/metrics.md), for operators only (Authorization: Bearer <admin_token>).
import type { ServiceMetrics } from '../gateway/metrics/service-metrics.js';
import type { ConsoleRouter } from './router.js';

export function registerMetricsRoute(router: ConsoleRouter, metrics: ServiceMetrics): void {
  router.route({ method: 'get', path: '/metrics', access: 'operator', body: 'none', action: 'metrics.scrape' }, async (call) => {
    const { text, contentType } = await metrics.scrape();
    call.status = 200;
    call.ex.send(200, text, contentType);
  });
}
