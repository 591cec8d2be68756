#!/usr/bin/env bash
# Re-creation of the old `sync.sh --check` loop, used only as the baseline in bench/sync.sh: for
# every target of the targets file whose SDK repository is present, `diff -q` the two top-level
# files and `diff -qr` the two directories against the canonical suite.
#   bench/legacy/sync_check.sh SUITE WORKSPACE TARGETS_FILE
suite=$1 ws=$2 targets=$3
status=0
while IFS= read -r line; do
    target=${line%%#*}
    target=${target//[[:space:]]/}
    [ -n "$target" ] || continue
    [ -d "$ws/${target%%/*}" ] || { echo "skip $target"; continue; }
    dest=$ws/$target
    for f in CONFORMANCE_VERSION manifest.json; do
        diff -q "$suite/$f" "$dest/$f" >/dev/null || status=1
    done
    for d in schema fixtures; do
        diff -qr "$suite/$d" "$dest/$d" >/dev/null || status=1
    done
done <"$targets"
exit $status
