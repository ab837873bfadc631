#!/usr/bin/env bash
# `npm test`: everything CI checks, in order, stopping at the first failure:
# type check, lint, i18n parity, unit + integration tests, build, binaries (x64 + arm64), arm64 smoke
# under qemu, then the tests of the built binary and the browser specs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

results=test-results
mkdir -p "$results"
step=""
started=$(date +%s)
trap 'echo "test-all: FAILED at step: $step"' ERR

begin() {
  step=$1
  echo
  echo "== $step"
}

# Vitest writes a JSON report per run; the totals feed the summary line.
count() {
  node -e '
    let p = 0, f = 0;
    for (const file of process.argv.slice(1)) {
      const r = JSON.parse(require("fs").readFileSync(file, "utf8"));
      p += r.numPassedTests; f += r.numFailedTests;
    }
    console.log(`${p} ${f}`);
  ' "$@"
}

begin "type check"
tsc --noEmit -p tsconfig.json

# oxlint (.oxlintrc.json) for the code, dependency-cruiser (.dependency-cruiser.cjs) for imports.
begin "lint"
npm run --silent lint

if [ -f web/i18n/check-parity.ts ]; then
  begin "i18n parity"
  tsx web/i18n/check-parity.ts
fi

begin "unit and integration tests"
vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json"

begin "build"
tsx scripts/build.ts

begin "binaries"
tsx scripts/binary.ts

if command -v qemu-aarch64-static >/dev/null 2>&1; then
  begin "arm64 smoke"
  bash scripts/smoke-arm64.sh
else
  echo "test-all: qemu-aarch64-static not installed; arm64 smoke not run"
fi

begin "binary and browser tests"
vitest run --config vitest.e2e.config.ts --reporter=default --reporter=json --outputFile.json="$results/e2e.json"

read -r passed failed < <(count "$results/vitest.json" "$results/e2e.json")
echo
echo "test-all: all steps passed in $(( $(date +%s) - started )) s"
echo "test-all: $passed passed, $failed failed"
