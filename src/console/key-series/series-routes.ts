// GET /console/api/keys/{id}/series?step=10s|1m&from=&to=: a key's requests, errors by name and
// latency percentiles over time, as a whole and per endpoint. `10s` covers the last hour, `1m` the
// last day; the window is clamped to that (time-window.ts).
import { ApiError } from '../../gateway/errors.js';
import { readQuery } from '../../gateway/rest/query.js';
import { keyOf } from '../actor.js';
import type { ConsoleRouter } from '../router.js';
import { timeWindow } from '../time-window.js';
import { SERIES_STEPS, type KeySeries, type SeriesStep } from './key-series.js';
import { seriesJson } from './series-json.js';

function stepOf(text: string | undefined): SeriesStep {
  if (text === undefined) return '10s';
  if (text === '10s' || text === '1m') return text;
  throw new ApiError('bad_request', 'step must be 10s (the last hour) or 1m (the last day)', { field: 'step' });
}

export function registerSeriesRoutes(router: ConsoleRouter, series: KeySeries): void {
  const { deps } = router;
  router.route({ method: 'get', path: '/console/api/keys/:id/series', access: 'member', body: 'none', action: 'key.series' }, (call) => {
    const key = keyOf(deps, call, call.params[0]!);
    const q = readQuery(call.ex.query, ['step', 'from', 'to']);
    const step = stepOf(q.get('step'));
    const { stepMs, keepMs } = SERIES_STEPS[step];
    const w = timeWindow(q, call.nowMs, keepMs, stepMs);
    call.reply(200, seriesJson(key.id, w, series.rows(key.id, step, w)), [['cache-control', 'no-store']]);
  });
}
