#!/usr/bin/env bash
# Runs every fuzz target in turn for SECONDS each (default 60), from the seed corpora.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
# Needs the nightly toolchain (`cargo +nightly`); installs cargo-fuzz when it is missing.
# Each run's log goes to fuzz/logs/TARGET.log, its summary line to fuzz/logs/summary.txt; an
# input that crashes, hangs (over 10 s) or runs out of memory (over 2 GB) is saved under
# fuzz/artifacts/TARGET/ and the script exits 1: copy it to fuzz/regressions/TARGET/, where
# `cargo test` replays it on stable.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(archive json suite results sums targets diff sbp_decode adapter)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cd "$here"
cargo +nightly fuzz build -O
mkdir -p logs
status=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  cp -n seeds/"$t"/* "corpus/$t/" 2>/dev/null || true
  started=$(date +%s)
  if cargo +nightly fuzz run -O "$t" "corpus/$t" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
      -print_final_stats=1 >"logs/$t.log" 2>&1; then
    result=ok
  else
    result=FAILED
    status=1
  fi
  elapsed=$(( $(date +%s) - started ))
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -oE '#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "logs/$t.log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || echo "cov: ?")
  rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' || echo "?")
  line="$t: $result, ${elapsed}s, $execs execs, $cov, peak RSS ${rss} MB"
  echo "$line" | tee -a logs/summary.txt
done
exit $status
