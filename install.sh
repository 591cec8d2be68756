#!/bin/sh
# Installs a prebuilt bqsuite from a BabelQueue conformance release, verified against the
# release's published checksums (bqsuite-SHA256SUMS) before anything is installed, and against
# the checksum you pinned (--sha256), if you give one.
#
#   sh install.sh --version 1.5.0 [--dir DIR] [--target TRIPLE] [--sha256 HEX]
#   curl -fsSL https://raw.githubusercontent.com/BabelQueue/conformance/v1.5.0/install.sh \
#     | sh -s -- --version 1.5.0 --dir "$HOME/.local/bin"
#
# Options (or environment):
#   --version X.Y.Z   (BQSUITE_VERSION)       the release; v1.5.0 and 1.5.0 are the same
#   --dir DIR         (BQSUITE_INSTALL_DIR)   where bqsuite goes (default: $HOME/.local/bin)
#   --target TRIPLE   (BQSUITE_TARGET)        the binary to install (default: this platform's)
#   --sha256 HEX      (BQSUITE_SHA256)        the sha256 you expect of the archive for TRIPLE
#                                             (its line in bqsuite-SHA256SUMS, checked when you
#                                             pinned it): a release or mirror changed since then
#                                             is refused, checksum file and all
#   --suite NAME      (BQSUITE_SUITE)         the suite you will fetch with it (babelqueue, the
#                                             default, or sbp), as `bqsuite fetch --suite NAME`;
#                                             the installer names the command that fetches it
#   --cache DIR       (BQSUITE_CACHE_DIR)     keep the verified archive here and reuse it; it is
#                                             verified against the downloaded checksums each time
#   --timeout SECONDS (BQSUITE_TIMEOUT)       the limit on one download, retries included (600)
#   --min-speed BYTES (BQSUITE_MIN_SPEED)     the slowest average a download may keep, in bytes
#                                             per second, once BQSUITE_SPEED_WINDOW seconds (30)
#                                             have passed (1024; 0 turns the rule off)
#   --print-target                            print this platform's target and exit
#   BQ_CONFORMANCE_BASE_URL   the release location (http://, https:// or file:///, `{version}`
#                             replaced by the version), as for `bqsuite fetch`; default
#                             https://github.com/BabelQueue/conformance/releases/download/v{version}
#
# Downloads use curl: redirects are followed to http:// and https:// only, never from https://
# to http://. (Without curl, wget: it cannot enforce the minimum speed or refuse an https:// to
# http:// redirect; the checksum still guards the archive.) bqsuite-SHA256SUMS is read as
# `bqsuite fetch` reads SHA256SUMS: lines `<64 hex>  <file>` (or ` *<file>`), CRLF allowed, at
# most 64 KiB of UTF-8; two lines that give the archive different hashes are refused.
#
# Exit codes: 0 installed; 1 the download does not match its published checksum or the
# --sha256 pin, or the checksum file is unusable (nothing is installed); 2 it could not run
# (usage, unsupported platform, download failure, interrupted by a signal).
set -eu

# Text from arguments, the environment or a server is shown with control, bidi and invisible
# format characters escaped (\n, \x1b, \u202e), so a message is always one line and no line
# can start with a workflow command (`::`) because of data.
shown() {
    BQ_SHOWN=$1 LC_ALL=C awk '
        function special(cp) {
            return (cp >= 8203 && cp <= 8207) || (cp >= 8232 && cp <= 8238) ||
                   (cp >= 8288 && cp <= 8303) || cp == 65279
        }
        BEGIN {
            for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i
            s = ENVIRON["BQ_SHOWN"]; n = length(s); out = ""
            for (i = 1; i <= n; i++) {
                c = substr(s, i, 1)
                if (!(c in ord)) { out = out c; continue }
                b = ord[c]
                if (b == 10) { out = out "\\n"; continue }
                if (b == 13) { out = out "\\r"; continue }
                if (b == 9) { out = out "\\t"; continue }
                if (b < 32 || b == 127) { out = out sprintf("\\x%02x", b); continue }
                if (b == 194 && i < n) {
                    b2 = ord[substr(s, i + 1, 1)]
                    if (b2 >= 128 && b2 < 160) { out = out sprintf("\\u%04x", b2); i++; continue }
                }
                if (b == 216 && ord[substr(s, i + 1, 1)] == 156) { out = out "\\u061c"; i++; continue }
                if ((b == 226 || b == 239) && i + 2 <= n) {
                    b2 = ord[substr(s, i + 1, 1)]; b3 = ord[substr(s, i + 2, 1)]
                    cp = (b - 224) * 4096 + (b2 - 128) * 64 + (b3 - 128)
                    if (b2 >= 128 && b2 < 192 && b3 >= 128 && b3 < 192 && special(cp)) {
                        out = out sprintf("\\u%04x", cp); i += 2; continue
                    }
                }
                out = out c
            }
            printf "%s", out
        }'
}

say() { printf 'install.sh: %s\n' "$(shown "$*")" >&2; }
# fail MESSAGE [HELP [STATUS]]: the only way this script stops on an error.
fail() {
    failed=yes
    say "error: $1"
    if [ -n "${2:-}" ]; then say "  help: $2"; fi
    exit "${3:-2}"
}

# Everything this run creates outside its private work directory, removed on any exit.
work=
tmp=
cache_tmp=
child=
installed=
failed=
cleanup() {
    if [ -n "$child" ]; then
        kill "$child" 2>/dev/null || :
        wait "$child" 2>/dev/null || :
        child=
    fi
    if [ -n "$tmp" ]; then rm -f "$tmp"; fi
    if [ -n "$cache_tmp" ]; then rm -f "$cache_tmp"; fi
    if [ -n "$work" ]; then rm -rf "$work"; fi
}
on_exit() {
    status=$?
    cleanup
    if [ "$status" -ne 0 ] && [ -z "$failed" ]; then
        # A command failed under `set -e` without a message of ours: say so, and never let its
        # status pass for 1 ("does not match its checksum").
        say "error: stopped by an unexpected failure (status $status); nothing was installed"
        say "  help: run it again; if it fails the same way, report it with the output above"
        exit 2
    fi
}
on_signal() {
    trap - EXIT HUP INT TERM
    cleanup
    failed=yes
    if [ -n "$installed" ]; then
        say "error: interrupted by SIG$1 after $installed was installed"
    else
        say "error: interrupted by SIG$1; nothing was installed"
    fi
    say "  help: run the same command again to install"
    exit 2
}
trap on_exit EXIT
trap 'on_signal HUP' HUP
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM

# run OUT ERR COMMAND...: runs it in the background (its output to the files OUT and ERR) and
# waits, so that a signal is handled at once (the shell runs a trap only when the foreground
# command ends, and a redirection of this function would swallow the trap's message); the
# status is in $rc.
run() {
    out_file=$1 err_file=$2
    shift 2
    "$@" >"$out_file" 2>"$err_file" &
    child=$!
    rc=0
    wait "$child" || rc=$?
    child=
}

version=${BQSUITE_VERSION:-}
dir=${BQSUITE_INSTALL_DIR:-}
target=${BQSUITE_TARGET:-}
cache=${BQSUITE_CACHE_DIR:-}
pinned=${BQSUITE_SHA256:-}
suite=${BQSUITE_SUITE:-babelqueue}
timeout_s=${BQSUITE_TIMEOUT:-600}
min_speed=${BQSUITE_MIN_SPEED:-1024}
speed_window=${BQSUITE_SPEED_WINDOW:-30}
print_target=no
while [ $# -gt 0 ]; do
    case $1 in
        --version) [ $# -ge 2 ] || fail "--version needs a value" "e.g. \`--version 1.5.0\`"; version=$2; shift 2 ;;
        --version=*) version=${1#*=}; shift ;;
        --dir) [ $# -ge 2 ] || fail "--dir needs a value" "e.g. \`--dir \$HOME/.local/bin\`"; dir=$2; shift 2 ;;
        --dir=*) dir=${1#*=}; shift ;;
        --target) [ $# -ge 2 ] || fail "--target needs a value" "e.g. \`--target x86_64-unknown-linux-musl\`"; target=$2; shift 2 ;;
        --target=*) target=${1#*=}; shift ;;
        --print-target) print_target=yes; shift ;;
        --sha256) [ $# -ge 2 ] || fail "--sha256 needs a value" "pass the 64 hex digits of the archive's line in the release's bqsuite-SHA256SUMS"; pinned=$2; shift 2 ;;
        --sha256=*) pinned=${1#*=}; shift ;;
        --suite) [ $# -ge 2 ] || fail "--suite needs a value" "e.g. \`--suite sbp\`"; suite=$2; shift 2 ;;
        --suite=*) suite=${1#*=}; shift ;;
        --cache) [ $# -ge 2 ] || fail "--cache needs a value" "e.g. \`--cache \$HOME/.cache/bqsuite\`"; cache=$2; shift 2 ;;
        --cache=*) cache=${1#*=}; shift ;;
        --timeout) [ $# -ge 2 ] || fail "--timeout needs a value" "e.g. \`--timeout 600\`"; timeout_s=$2; shift 2 ;;
        --timeout=*) timeout_s=${1#*=}; shift ;;
        --min-speed) [ $# -ge 2 ] || fail "--min-speed needs a value" "e.g. \`--min-speed 1024\`"; min_speed=$2; shift 2 ;;
        --min-speed=*) min_speed=${1#*=}; shift ;;
        -h|--help)
            awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" 2>/dev/null || :
            exit 0 ;;
        *) fail "unknown argument \`$1\`" "run \`sh install.sh --help\` for the options" ;;
    esac
done

# number NAME VALUE MIN: VALUE as a whole number of at least MIN, in $value.
number() {
    value=$2
    case $value in
        ''|*[!0-9]*) fail "$1 \`$2\` is not a whole number" "e.g. \`$1 600\`" ;;
    esac
    # Leading zeros would make it octal in $((...)); more than 9 digits could overflow.
    while :; do case $value in 0?*) value=${value#0} ;; *) break ;; esac; done
    [ ${#value} -le 9 ] || fail "$1 \`$2\` is too large" "use at most 999999999"
    [ "$value" -ge "$3" ] || fail "$1 must be at least $3" "e.g. \`$1 600\`"
}
# A suite's name, as its description gives it: lowercase letters, digits and `-`.
case $suite in
    ''|[!a-z]*|*[!a-z0-9-]*) fail "--suite \`$suite\` is not a suite name" "e.g. \`--suite sbp\` (or leave it out for babelqueue)" ;;
esac
number --timeout "$timeout_s" 1 && timeout_s=$value
number --min-speed "$min_speed" 0 && min_speed=$value
number BQSUITE_SPEED_WINDOW "$speed_window" 1 && speed_window=$value

# The release asset for this machine. Linux gets the static (musl) build, which runs on any
# distribution, Alpine included.
detect_target() {
    os=$(uname -s 2>/dev/null || echo unknown)
    arch=$(uname -m 2>/dev/null || echo unknown)
    case $arch in
        x86_64|amd64) arch=x86_64 ;;
        aarch64|arm64) arch=aarch64 ;;
        *) fail "no prebuilt bqsuite for the $arch architecture" \
                "build it with \`cargo install --locked --git https://github.com/BabelQueue/conformance bqsuite\`" ;;
    esac
    case $os in
        Linux) target=$arch-unknown-linux-musl ;;
        Darwin) target=$arch-apple-darwin ;;
        MINGW*|MSYS*|CYGWIN*|Windows_NT) target=x86_64-pc-windows-msvc ;;
        *) fail "no prebuilt bqsuite for $os" \
                "build it with \`cargo install --locked --git https://github.com/BabelQueue/conformance bqsuite\`" ;;
    esac
}

[ -n "$target" ] || detect_target
# The target names a file and a URL and is printed for the action's $GITHUB_OUTPUT: letters,
# digits, `_`, `.` and `-` only.
case $target in
    *[!0-9A-Za-z_.-]*|[.-]*)
        fail "\`$target\` is not a target triple" \
             "pass one such as x86_64-unknown-linux-musl (\`sh install.sh --print-target\` without BQSUITE_TARGET shows this machine's)" ;;
esac
if [ "$print_target" = yes ]; then
    echo "$target"
    exit 0
fi

[ -n "$version" ] || fail "which release? pass --version" "e.g. \`sh install.sh --version 1.5.0\`"
version=${version#v}
case $version in
    *[!0-9A-Za-z.+-]*|"") fail "\`$version\` is not a version" "pass a SemVer version such as 1.5.0" ;;
esac
# A directory named like an option would be read as one by mkdir and mktemp.
case $dir in -*) dir=./$dir ;; esac
case $cache in -*) cache=./$cache ;; esac
if [ -z "$dir" ]; then
    [ -n "${HOME:-}" ] ||
        fail "HOME is not set, so there is no default install directory" \
             "pass the directory, e.g. \`--dir /usr/local/bin\`"
    dir="$HOME/.local/bin"
fi

base=${BQ_CONFORMANCE_BASE_URL:-https://github.com/BabelQueue/conformance/releases/download/v\{version\}}
case $base in
    http://*|https://*|file:///*) ;;
    *) fail "unsupported base URL \`$base\`" "set BQ_CONFORMANCE_BASE_URL to an http://, https:// or file:/// URL" ;;
esac
# `{version}` in the base is replaced, as bqsuite fetch does (the version holds no `/`, `&` or `\`).
base=$(printf '%s' "$base" | sed "s/{version}/$version/g")
base=${base%/}

case $target in
    *windows*) ext=zip; exe=bqsuite.exe ;;
    *) ext=tar.gz; exe=bqsuite ;;
esac
name="bqsuite-v$version-$target"
archive="$name.$ext"
sums=bqsuite-SHA256SUMS
max_sums=65536
if [ -n "$pinned" ]; then
    case $pinned in
        *[!0-9A-Fa-f]*) pinned_len=0 ;;
        *) pinned_len=${#pinned} ;;
    esac
    [ "$pinned_len" -eq 64 ] ||
        fail "--sha256 \`$pinned\` is not a sha256 (64 hex digits)" \
             "pass the hash on the release's line for $archive: \`curl -fsSL $base/$sums | grep ' $archive\$'\`"
    pinned=$(printf '%s' "$pinned" | tr 'A-F' 'a-f')
fi
max_archive=268435456

# The tools, before anything is downloaded: a missing one is "could not run" (2), never a
# verification failure.
sha=
for tool in sha256sum shasum openssl; do
    if command -v "$tool" >/dev/null 2>&1; then sha=$tool; break; fi
done
[ -n "$sha" ] ||
    fail "no sha256 tool (sha256sum, shasum or openssl) to verify the download" "install coreutils"
case $ext in
    tar.gz) tools="gzip tar" ;;
    *) tools= ; command -v unzip >/dev/null 2>&1 || tools=powershell.exe ;;
esac
for tool in mktemp $tools; do
    command -v "$tool" >/dev/null 2>&1 ||
        fail "\`$tool\` is not installed, and install.sh needs it" "install it, then run the same command again"
done

work=$(mktemp -d 2>/dev/null || mktemp -d -t bqsuite-install 2>/dev/null) ||
    fail "cannot create a temporary directory" "set TMPDIR to a writable directory"

now() { date +%s 2>/dev/null || awk 'BEGIN { srand(); print srand() }'; }
size_of() { n=$(wc -c <"$1") && echo $((n + 0)); }

# download URL FILE MAX_BYTES: 0, or 1 with the reason in $why. Stops the script (exit 2) on a
# deadline, a download too slow, or a redirect to anything but http(s).
download() {
    why=
    rm -f "$2"
    case $1 in
        file://*)
            src=${1#file://}
            if [ ! -f "$src" ]; then why="$src is not a file"; return 1; fi
            if [ "$(size_of "$src")" -gt "$3" ]; then why="$src is larger than $3 bytes"; return 1; fi
            cp "$src" "$2" || { why="cannot read $src"; return 1; }
            ;;
        http://*|https://*)
            if command -v curl >/dev/null 2>&1; then
                download_curl "$@" || return 1
            elif command -v wget >/dev/null 2>&1; then
                download_wget "$@" || return 1
            else
                fail "neither curl nor wget is installed" "install one of them, or download $1 yourself"
            fi
            ;;
        *) fail "unsupported URL \`$1\`" "set BQ_CONFORMANCE_BASE_URL to an http://, https:// or file:/// URL" ;;
    esac
    # (curl checks a Content-Length against the cap; a body sent without one is checked here.)
    if [ "$(size_of "$2")" -gt "$3" ]; then why="it is larger than $3 bytes"; return 1; fi
}

too_long() {
    got=0
    [ -f "$2" ] && got=$(size_of "$2")
    fail "downloading $1 took longer than $timeout_s s ($got bytes received), the limit for one download" \
         "raise it with --timeout SECONDS, or use a mirror (BQ_CONFORMANCE_BASE_URL)"
}

download_curl() {
    started=$(now)
    # As bqsuite fetch: never from https to anything else.
    case $1 in https://*) redirects='=https' ;; *) redirects='=https,http' ;; esac
    attempt=1
    while :; do
        left=$((started + timeout_s - $(now)))
        [ "$left" -gt 0 ] || too_long "$1" "$2"
        connect=15
        [ "$left" -ge "$connect" ] || connect=$left
        set -- "$1" "$2" "$3" --proto '=https,http' --proto-redir "$redirects" --max-redirs 10 \
            -fsSL --connect-timeout "$connect" --max-time "$left" --max-filesize "$3" \
            -w '%{http_code} %{url_effective}' -o "$2"
        if [ "$min_speed" -gt 0 ]; then
            set -- "$@" --speed-limit "$min_speed" --speed-time "$speed_window"
        fi
        url=$1 out=$2 cap=$3
        shift 3
        run "$work/curl.out" "$work/curl.err" curl "$@" "$url"
        set -- "$url" "$out" "$cap"
        [ "$rc" -ne 0 ] || return 0
        answer=$(cat "$work/curl.out" 2>/dev/null || :)
        code=${answer%% *}
        landed=${answer#* }
        said=$(sed -n 's/^curl: ([0-9]*) //p' "$work/curl.err" 2>/dev/null | head -n 1)
        retry=no
        case $rc in
            1)
                if [ "$landed" != "$1" ]; then
                    fail "$1 redirected to $landed, and a download follows redirects only to http:// and https:// addresses: a server may not make install.sh read a local file or use another protocol" \
                         "the mirror is misconfigured or not trustworthy; point BQ_CONFORMANCE_BASE_URL at the files themselves (file:///path for a local copy)"
                fi
                why="curl cannot use this address: $said" ;;
            28)
                case $said in
                    *"too slow"*)
                        fail "downloading $1 averaged below the minimum of $min_speed bytes/s over $speed_window s" \
                             "lower it with --min-speed BYTES (0 turns the rule off), or use a mirror (BQ_CONFORMANCE_BASE_URL)" ;;
                    *) too_long "$1" "$2" ;;
                esac ;;
            63) why="it is larger than $3 bytes" ;;
            47) why="it redirects more than 10 times" ;;
            6) why="the host name does not resolve" ;;
            22)
                why="the server answered HTTP $code"
                case $code in 408|429|5??) retry=yes ;; esac ;;
            7|18|35|52|55|56) why="the connection failed: $said"; retry=yes ;;
            *) why="curl failed: $said" ;;
        esac
        if [ "$retry" = no ] || [ "$attempt" -ge 4 ]; then return 1; fi
        pause=$((1 << (attempt - 1)))
        left=$((started + timeout_s - $(now)))
        [ "$left" -gt "$pause" ] || too_long "$1" "$2"
        run /dev/null /dev/null sleep "$pause"
        attempt=$((attempt + 1))
    done
}

download_wget() {
    started=$(now)
    if command -v timeout >/dev/null 2>&1; then
        run /dev/null /dev/null timeout "$timeout_s" wget -q -T 30 -t 3 -O "$2" "$1"
        [ "$rc" -ne 124 ] || too_long "$1" "$2"
    else
        run /dev/null /dev/null wget -q -T 30 -t 3 -O "$2" "$1"
    fi
    [ $(($(now) - started)) -le "$timeout_s" ] || too_long "$1" "$2"
    if [ "$rc" -ne 0 ]; then why="wget failed (status $rc)"; return 1; fi
}

sha256_of() {
    case $sha in
        sha256sum) sha256sum "$1" | cut -d ' ' -f 1 ;;
        shasum) shasum -a 256 "$1" | cut -d ' ' -f 1 ;;
        openssl) openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1 ;;
    esac
}

# lookup FILE NAME: the hash FILE gives for NAME, as bqsuite fetch reads SHA256SUMS: a line is
# `<hash> <space or *><name>` split at its first space (no other spacing), the hash 64 hex
# digits, CRLF line ends allowed (a lone CR is part of the line); other lines are ignored.
# Prints nothing (no line), the hash, or `ambiguous N H1, H2...` when lines disagree.
lookup() {
    if [ "$(tail -c 1 "$1" | wc -l)" -eq 1 ]; then ends=1; else ends=0; fi
    LC_ALL=C awk -v ends="$ends" -v n="$2" '
        function take(line,   i, h, rest, c) {
            i = index(line, " ")
            if (i == 0) return
            h = substr(line, 1, i - 1); rest = substr(line, i + 1); c = substr(rest, 1, 1)
            if ((c != " " && c != "*") || substr(rest, 2) != n) return
            if (length(h) != 64 || h ~ /[^0-9A-Fa-f]/) return
            h = tolower(h); lines++
            if (!(h in seen)) { seen[h] = 1; k++; list = (k == 1) ? h : list ", " h }
        }
        NR > 1 { sub(/\r$/, "", prev); take(prev) }
        { prev = $0 }
        END {
            if (NR > 0) { if (ends) sub(/\r$/, "", prev); take(prev) }
            if (k == 1) print list
            else if (k > 1) print "ambiguous " lines " " list
        }' "$1"
}

# text FILE: UTF-8 without NUL bytes (as bqsuite fetch requires of SHA256SUMS).
text() {
    [ "$(tr -d '\000' <"$1" | wc -c)" -eq "$(wc -c <"$1")" ] || return 1
    LC_ALL=C awk '$0 !~ /^([\001-\177]|[\302-\337][\200-\277]|\340[\240-\277][\200-\277]|[\341-\354\356\357][\200-\277][\200-\277]|\355[\200-\237][\200-\277]|\360[\220-\277][\200-\277][\200-\277]|[\361-\363][\200-\277][\200-\277][\200-\277]|\364[\200-\217][\200-\277][\200-\277])*$/ { bad = 1 } END { exit bad }' "$1"
}

say "downloading $base/$sums"
download "$base/$sums" "$work/$sums" "$max_sums" || case $why in
    *"larger than"*)
        fail "$base/$sums is larger than $max_sums bytes; refusing to install" \
             "the release is not a bqsuite release, or the mirror is misconfigured" 1 ;;
    *)
        first_why=$why
        # A mirror made by `bqsuite release` holds the suite's asset and SHA256SUMS only.
        if download "$base/SHA256SUMS" "$work/suite-sums" "$max_sums"; then
            fail "$base has the suite's SHA256SUMS but no $sums: it is a mirror of the suite (what \`bqsuite release\` writes), without bqsuite's binary archives" \
                 "copy the release's $sums and $archive into the mirror beside the suite's asset (the CI guide, \"One mirror for the installer and fetch\"), or install from the GitHub release (unset BQ_CONFORMANCE_BASE_URL)"
        fi
        fail "cannot download $base/$sums: $first_why (version $version is not released there, or the network failed)" \
             "check the version; to use a mirror, set BQ_CONFORMANCE_BASE_URL" ;;
esac
text "$work/$sums" ||
    fail "$base/$sums is not text (UTF-8 without NUL bytes); refusing to install" \
         "the release's checksum file is corrupt or was tampered with; nothing was installed" 1
expected=$(lookup "$work/$sums" "$archive") ||
    fail "cannot read $work/$sums" "check that awk works, then run it again"
case $expected in
    ambiguous*)
        rest=${expected#ambiguous }
        fail "$base/$sums has ${rest%% *} lines for $archive that disagree (${rest#* }); no hash can be trusted, refusing to install" \
             "the release's checksum file is corrupt or was tampered with; nothing was installed" 1 ;;
    "")
        # A mirror holding several releases: no line and no archive means not released there.
        download "$base/$archive" "$work/$archive" "$max_archive" ||
            fail "cannot download $base/$archive: $why (bqsuite $version for $target is not released there)" \
                 "check the version and --target; to use a mirror, set BQ_CONFORMANCE_BASE_URL"
        fail "$base/$sums has no checksum for $archive; refusing to install" \
             "the release is incomplete or not a bqsuite release" 1 ;;
esac
pin_help="nothing was installed. The release or the mirror changed since you pinned it, or the pin is for another version or platform (this is $version for $target); compare the pin with the release's line: \`curl -fsSL $base/$sums | grep ' $archive\$'\`"
if [ -n "$pinned" ] && [ "$pinned" != "$expected" ]; then
    fail "checksum mismatch for $archive: --sha256 pins $pinned, but $base/$sums gives $expected; refusing to install" \
         "$pin_help" 1
fi

actual=
if [ -n "$cache" ] && [ -f "$cache/$archive" ]; then
    if cp "$cache/$archive" "$work/$archive" 2>/dev/null; then
        actual=$(sha256_of "$work/$archive")
    fi
    if [ -n "$actual" ] && [ "$actual" = "$expected" ]; then
        say "using $cache/$archive (matches $sums)"
    else
        say "the cached $archive does not match $sums; downloading it again"
        actual=
    fi
fi
if [ -z "$actual" ]; then
    say "downloading $base/$archive"
    download "$base/$archive" "$work/$archive" "$max_archive" ||
        fail "cannot download $base/$archive: $why (no bqsuite for $target in release $version, or the network failed)" \
             "check the version and --target; to use a mirror, set BQ_CONFORMANCE_BASE_URL"
    actual=$(sha256_of "$work/$archive")
fi
if [ "$actual" != "$expected" ]; then
    fail "checksum mismatch for $archive: expected $expected, got $actual; refusing to install" \
         "the download is damaged or was tampered with; nothing was installed" 1
fi
# (Equal to $expected by now; checked on its own all the same.)
if [ -n "$pinned" ] && [ "$actual" != "$pinned" ]; then
    fail "checksum mismatch for $archive: --sha256 pins $pinned, got $actual; refusing to install" \
         "$pin_help" 1
fi
if [ -n "$pinned" ]; then
    say "verified $archive (sha256 $actual, as $sums gives and --sha256 pins)"
else
    say "verified $archive (sha256 $actual)"
fi
if [ -n "$cache" ]; then
    # A fresh file of ours (mktemp: never an existing name, never through a planted symlink).
    if mkdir -p "$cache" 2>/dev/null &&
       cache_tmp=$(mktemp "$cache/.$archive.XXXXXX" 2>/dev/null) &&
       cp "$work/$archive" "$cache_tmp" && mv -f "$cache_tmp" "$cache/$archive"; then
        cache_tmp=
    else
        if [ -n "$cache_tmp" ]; then rm -f "$cache_tmp"; fi
        cache_tmp=
        say "note: cannot keep the archive in $cache"
    fi
fi

mkdir "$work/x" || fail "cannot create $work/x" "set TMPDIR to a writable directory"
case $ext in
    tar.gz) (cd "$work/x" && gzip -dc "../$archive" | tar -xf -) ;;
    zip)
        if command -v unzip >/dev/null 2>&1; then
            unzip -q "$work/$archive" -d "$work/x"
        else
            powershell.exe -NoProfile -Command "Expand-Archive -Path '$work/$archive' -DestinationPath '$work/x'"
        fi
        ;;
esac || fail "cannot unpack $archive; refusing to install" "the release archive is damaged; nothing was installed" 1
binary="$work/x/$name/$exe"
[ -f "$binary" ] || fail "$archive does not hold $name/$exe; refusing to install" "" 1

mkdir -p "$dir" || fail "cannot create $dir" "pass a writable --dir"
if [ -d "$dir/$exe" ] && [ ! -L "$dir/$exe" ]; then
    fail "$dir/$exe is a directory; nothing was installed" "remove it, or pass another --dir"
fi
# A fresh file beside the target (mktemp creates it, so a name planted beforehand, a symlink
# included, is never written through), then renamed over it: an interrupted install never
# leaves half a binary.
tmp=$(mktemp "$dir/.$exe.install.XXXXXX" 2>/dev/null) ||
    fail "cannot create a file in $dir" "pass a writable --dir"
cp "$binary" "$tmp" || fail "cannot write to $dir" "pass a writable --dir"
chmod 755 "$tmp" || fail "cannot make $tmp executable" "pass a --dir on a file system that allows it"
mv -f "$tmp" "$dir/$exe" || fail "cannot replace $dir/$exe" "pass a writable --dir"
tmp=
installed="$dir/$exe"
say "installed $dir/$exe ($("$dir/$exe" --version 2>/dev/null || echo "bqsuite $version"))"
case ":${PATH:-}:" in
    *":$dir:"*) ;;
    *) say "note: $dir is not on PATH; add it, e.g. \`export PATH=\"$dir:\$PATH\"\`" ;;
esac
if [ "$suite" != babelqueue ]; then
    say "to vendor the $suite suite: \`$dir/$exe fetch --suite $suite VERSION DIR\` (a vendored copy says which suite it is afterwards)"
fi
