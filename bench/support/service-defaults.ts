// The service's embedded defaults (config/default.json), for benches whose baselines must run as
// the service does.
import fs from 'node:fs';
import type { ShardIdle } from '../../src/config/types.js';

interface ServiceDefaults { readonly shards: number; readonly shard_idle: ShardIdle }

export const SERVICE_DEFAULTS = JSON.parse(fs.readFileSync(new URL('../../../config/default.json', import.meta.url), 'utf8')) as ServiceDefaults;
