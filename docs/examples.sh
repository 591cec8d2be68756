#!/usr/bin/env bash
# Rewrites every report example in README.md and docs/ (the blocks marked
# `<!-- example: NAME -->` ... `<!-- /example -->`) with what bqsuite prints today.
#
# tests/cli/docs/examples.rs builds a workspace shaped like the real SDK fleet in a temporary
# directory (the 25 targets of sync-targets.txt, most copies the unversioned upstream copy, two on
# real releases, one hand-edited, three repositories not cloned), an SDK checkout with an old copy
# and a file:// release mirror, runs each example, and compares; with BQSUITE_BLESS=1 it rewrites
# the blocks instead. Review the change with `git diff` before committing it.
#
# Usage: docs/examples.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BQSUITE_BLESS=1 cargo test --release --locked --test cli docs::examples
