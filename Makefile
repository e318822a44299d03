# Two commands on a fresh machine: `make run` and `make test`.
NODE_MODULES_STAMP := node_modules/.installed

.PHONY: run cluster build test check typecheck lint bench soak kill-soak screenshots clean

$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

build: $(NODE_MODULES_STAMP)
	npx tsc -p tsconfig.json

run: build
	npm start

# Three NATS servers and three tas nodes on loopback (docs/scaling.md); Ctrl-C stops them all.
cluster: build
	node dist/src/cluster/local.js

typecheck: $(NODE_MODULES_STAMP)
	npx tsc -p tsconfig.check.json

lint: $(NODE_MODULES_STAMP)
	npx eslint .

check: typecheck lint

test: build check
	npx vitest run

bench: build
	node dist/bench/run.js

# 30 minutes of steady mixed load at the documented limits, memory sampled (SOAK_MINUTES=2 for a look).
soak: build
	node dist/bench/soak.js

# The kill -9 test of the suite, a hundred crashes long instead of twenty.
kill-soak: build
	KILL_SOAK_CYCLES=100 npx vitest run test/durability/kill-cycles.test.ts

# Every console page at desktop width and 375 px, into docs/screenshots/ (headless Chromium).
screenshots: build
	npx tsx test/console/screenshots.ts

clean:
	rm -rf dist
