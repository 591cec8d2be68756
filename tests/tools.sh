#!/usr/bin/env bash
# Installs the programs the tests run besides cargo: the tar readers and writers the release-asset
# tests compare (GNU tar, bsdtar, busybox tar, Python's tarfile), gzip, man (the manual is
# read as a terminal shows it) and script (help is read on a terminal). Does nothing when they
# are all there; otherwise installs the missing Debian packages with apt-get (as root, or through
# sudo), or says which to install and fails.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1; }
have tar || need+=(tar)
have gzip || need+=(gzip)
have bsdtar || need+=(libarchive-tools)
have busybox || need+=(busybox)
have python3 || need+=(python3)
have man || need+=(man-db)
have script || need+=(bsdutils)
[ ${#need[@]} -eq 0 ] && exit 0

sudo=
if [ "$(id -u)" -ne 0 ]; then
    if have sudo; then sudo="sudo -n"; fi
fi
if have apt-get && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
    echo "tests/tools.sh: installing ${need[*]}" >&2
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
    exit 0
fi
echo "tests/tools.sh: the tests need these packages: ${need[*]}; install them and run again" >&2
exit 2
