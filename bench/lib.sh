# Shared by the bench/ scripts (sourced, not run): installing what they use, building bqsuite,
# and timing commands.
#
# Every script reads the same knobs from the environment:
#   RUNS=N        timed runs per command (each script has its own default)
#   SIZE_MB=N     size of the generated data, for the scripts that generate some
#   BENCH_PROFILE the cargo profile of the binary measured (default: dist, what releases ship)
#   BENCH_CI=1    a smoke run (what bench/ci.sh sets): a tool that cannot be installed is left
#                 out with a note instead of failing the run, and results are not comparable
#                 figures, only proof that the script still runs.

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The binary measured: the one releases ship (the dist profile: fat LTO, one codegen unit) unless
# BENCH_PROFILE names another (bench/ci.sh's smoke runs use the release profile the tests built).
BENCH_PROFILE=${BENCH_PROFILE:-dist}
BQ=$BENCH_ROOT/target/$BENCH_PROFILE/bqsuite

bench_note() {
    printf 'bench: %s\n' "$*" >&2
}

# Installs Debian/Ubuntu packages with apt-get (as root, or through sudo). Fails when it cannot.
bench_install() {
    local sudo=
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || return 1
        sudo="sudo -n"
    fi
    command -v apt-get >/dev/null 2>&1 || return 1
    bench_note "installing $*"
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null 2>&1
}

# bench_need COMMAND PACKAGE: makes COMMAND available, installing PACKAGE if needed. When it
# cannot: a smoke run (BENCH_CI=1) goes on without it (returns 1, with a note); a real run stops.
bench_need() {
    local cmd=$1 package=$2
    if command -v "$cmd" >/dev/null 2>&1 || [ -x "$cmd" ]; then
        return 0
    fi
    if bench_install "$package" && { command -v "$cmd" >/dev/null 2>&1 || [ -x "$cmd" ]; }; then
        return 0
    fi
    if [ "${BENCH_CI:-0}" = 1 ]; then
        bench_note "$cmd is not available and could not be installed ($package); left out of this smoke run"
        return 1
    fi
    bench_note "$cmd is needed: install the $package package and run again"
    exit 2
}

# Builds the measured binary (cargo does nothing when it is up to date).
bench_build() {
    (cd "$BENCH_ROOT" && cargo build --profile "$BENCH_PROFILE" --locked --quiet)
}

# A Python virtual environment with jsonschema, for the legacy checks; prints its python. When it
# cannot be made (no network for pip): a smoke run goes on without it, a real run stops.
bench_legacy_python() {
    local venv=$BENCH_ROOT/target/bench-venv
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import jsonschema' 2>/dev/null; then
        bench_need python3 python3-venv || return 1
        if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q jsonschema; } >/dev/null 2>&1; then
            rm -rf "$venv"
            if [ "${BENCH_CI:-0}" = 1 ]; then
                bench_note "the legacy Python check needs jsonschema from PyPI, which could not be installed; left out of this smoke run"
                return 1
            fi
            bench_note "could not install jsonschema into $venv (pip install jsonschema)"
            exit 2
        fi
    fi
    printf '%s\n' "$venv/bin/python"
}

# bench_compare EXPORT_MD RUNS NAME COMMAND [NAME COMMAND]...: times shell commands side by side,
# with hyperfine when it is there (a warm-up run, none in a smoke run, then RUNS runs; a markdown
# table to EXPORT_MD), else (a smoke run without hyperfine) with a plain loop of `date`.
bench_compare() {
    local md=$1 runs=$2 warmup=1
    shift 2
    [ "${BENCH_CI:-0}" != 1 ] || warmup=0
    if command -v hyperfine >/dev/null 2>&1; then
        local args=()
        while [ $# -gt 0 ]; do
            args+=(-n "$1" "$2")
            shift 2
        done
        # BENCH_PREPARE: a command run, untimed, before every timed run.
        [ -z "${BENCH_PREPARE:-}" ] || args=(--prepare "$BENCH_PREPARE" "${args[@]}")
        hyperfine --warmup "$warmup" --runs "$runs" --export-markdown "$md" "${args[@]}"
        return
    fi
    printf '| Command | Mean [s] | Runs |\n|:---|---:|---:|\n' >"$md"
    while [ $# -gt 0 ]; do
        local name=$1 cmd=$2 start total=0
        shift 2
        bash -c "$cmd" >/dev/null 2>&1 || {
            bench_note "failed: $cmd"
            return 1
        }
        for _ in $(seq "$runs"); do
            [ -z "${BENCH_PREPARE:-}" ] || bash -c "$BENCH_PREPARE"
            start=$(date +%s%N)
            bash -c "$cmd" >/dev/null 2>&1 || {
                bench_note "failed: $cmd"
                return 1
            }
            total=$((total + $(date +%s%N) - start))
        done
        printf '| `%s` | %s | %s |\n' "$name" \
            "$(awk -v ns="$total" -v n="$runs" 'BEGIN { printf "%.3f", ns / n / 1e9 }')" \
            "$runs" >>"$md"
    done
    bench_note "hyperfine is not available: plain timing (mean of $runs runs, no statistics)"
}

# bench_rss COMMAND...: peak RSS in KiB of COMMAND and its children (GNU time), stdout dropped.
bench_rss() {
    local out
    out=$(/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null) || {
        bench_note "failed: $*"
        return 1
    }
    printf '%s\n' "$out" | tail -n 1
}

# The machine, for the record.
bench_machine() {
    echo "machine: $(nproc) CPU(s), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -g | awk '/^Mem:/{print $2}') GiB RAM; load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
