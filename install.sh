#!/bin/sh
# Installs a prebuilt bqsuite from a BabelQueue conformance release, verified against the
# release's published checksums (bqsuite-SHA256SUMS) before anything is installed.
#
#   sh install.sh --version 1.5.0 [--dir DIR] [--target TRIPLE]
#   curl -fsSL https://raw.githubusercontent.com/BabelQueue/conformance/v1.5.0/install.sh \
#     | sh -s -- --version 1.5.0 --dir "$HOME/.local/bin"
#
# Options (or environment):
#   --version X.Y.Z   (BQSUITE_VERSION)       the release; v1.5.0 and 1.5.0 are the same
#   --dir DIR         (BQSUITE_INSTALL_DIR)   where bqsuite goes (default: $HOME/.local/bin)
#   --target TRIPLE   (BQSUITE_TARGET)        the binary to install (default: this platform's)
#   --cache DIR       (BQSUITE_CACHE_DIR)     keep the verified archive here and reuse it; it is
#                                             verified against the downloaded checksums each time
#   --print-target                            print this platform's target and exit
#   BQ_CONFORMANCE_BASE_URL   the release location (http://, https:// or file:///, `{version}`
#                             replaced by the version), as for `bqsuite fetch`; default
#                             https://github.com/BabelQueue/conformance/releases/download/v{version}
#
# Exit codes: 0 installed; 1 the download does not match its published checksum (nothing is
# installed); 2 it could not run (usage, unsupported platform, download failure).
set -eu

say() { printf 'install.sh: %s\n' "$*" >&2; }
fail() { say "error: $1"; [ -n "${2:-}" ] && say "  help: $2"; exit "${3:-2}"; }

version=${BQSUITE_VERSION:-}
dir=${BQSUITE_INSTALL_DIR:-}
target=${BQSUITE_TARGET:-}
cache=${BQSUITE_CACHE_DIR:-}
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
        --cache) [ $# -ge 2 ] || fail "--cache needs a value" "e.g. \`--cache \$HOME/.cache/bqsuite\`"; cache=$2; shift 2 ;;
        --cache=*) cache=${1#*=}; shift ;;
        -h|--help) sed -n '2,21p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown argument \`$1\`" "run \`sh install.sh --help\` for the options" ;;
    esac
done

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
        Linux) echo "$arch-unknown-linux-musl" ;;
        Darwin) echo "$arch-apple-darwin" ;;
        MINGW*|MSYS*|CYGWIN*|Windows_NT) echo "x86_64-pc-windows-msvc" ;;
        *) fail "no prebuilt bqsuite for $os" \
                "build it with \`cargo install --locked --git https://github.com/BabelQueue/conformance bqsuite\`" ;;
    esac
}

[ -n "$target" ] || target=$(detect_target)
if [ "$print_target" = yes ]; then
    echo "$target"
    exit 0
fi

[ -n "$version" ] || fail "which release? pass --version" "e.g. \`sh install.sh --version 1.5.0\`"
version=${version#v}
case $version in
    *[!0-9A-Za-z.+-]*|"") fail "\`$version\` is not a version" "pass a SemVer version such as 1.5.0" ;;
esac
[ -n "$dir" ] || dir="${HOME:?HOME is not set; pass --dir}/.local/bin"

base=${BQ_CONFORMANCE_BASE_URL:-https://github.com/BabelQueue/conformance/releases/download/v\{version\}}
# `{version}` in the base is replaced, as bqsuite fetch does.
base=$(printf '%s' "$base" | sed "s/{version}/$version/g")
base=${base%/}

case $target in
    *windows*) ext=zip; exe=bqsuite.exe ;;
    *) ext=tar.gz; exe=bqsuite ;;
esac
name="bqsuite-v$version-$target"
archive="$name.$ext"
sums=bqsuite-SHA256SUMS

work=$(mktemp -d 2>/dev/null || mktemp -d -t bqsuite-install)
trap 'rm -rf "$work"' EXIT INT TERM

# download URL FILE
download() {
    case $1 in
        file://*)
            src=${1#file://}
            [ -f "$src" ] || return 1
            cp "$src" "$2"
            ;;
        http://*|https://*)
            if command -v curl >/dev/null 2>&1; then
                curl --proto '=https,http' -fsSL --retry 3 --connect-timeout 15 -o "$2" "$1"
            elif command -v wget >/dev/null 2>&1; then
                wget -q -T 30 -t 3 -O "$2" "$1"
            else
                fail "neither curl nor wget is installed" "install one of them, or download $1 yourself"
            fi
            ;;
        *) fail "unsupported base URL \`$base\`" "set BQ_CONFORMANCE_BASE_URL to an http://, https:// or file:/// URL" ;;
    esac
}

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d ' ' -f 1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d ' ' -f 1
    elif command -v openssl >/dev/null 2>&1; then
        openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
    else
        fail "no sha256 tool (sha256sum, shasum or openssl) to verify the download" "install coreutils"
    fi
}

say "downloading $base/$sums"
download "$base/$sums" "$work/$sums" ||
    fail "cannot download $base/$sums (version $version is not released there, or the network failed)" \
         "check the version; to use a mirror, set BQ_CONFORMANCE_BASE_URL"
# The line `<64 hex>  <archive>` (or ` *<archive>`, binary mode) of the checksum file.
expected=$(awk -v n="$archive" '($2 == n || $2 == "*" n) && length($1) == 64 { print tolower($1); exit }' "$work/$sums")
if [ -z "$expected" ]; then
    # A mirror holding several releases: no line and no archive means not released there.
    download "$base/$archive" "$work/$archive" ||
        fail "cannot download $base/$archive: bqsuite $version for $target is not released there" \
             "check the version and --target; to use a mirror, set BQ_CONFORMANCE_BASE_URL"
    fail "$base/$sums has no checksum for $archive; refusing to install" \
         "the release is incomplete or not a bqsuite release" 1
fi

actual=
if [ -n "$cache" ] && [ -f "$cache/$archive" ]; then
    cp "$cache/$archive" "$work/$archive"
    actual=$(sha256_of "$work/$archive")
    if [ "$actual" = "$expected" ]; then
        say "using $cache/$archive (matches $sums)"
    else
        say "the cached $archive does not match $sums; downloading it again"
        actual=
    fi
fi
if [ -z "$actual" ]; then
    say "downloading $base/$archive"
    download "$base/$archive" "$work/$archive" ||
        fail "cannot download $base/$archive (no bqsuite for $target in release $version, or the network failed)" \
             "check the version and --target; to use a mirror, set BQ_CONFORMANCE_BASE_URL"
    actual=$(sha256_of "$work/$archive")
fi
if [ "$actual" != "$expected" ]; then
    fail "checksum mismatch for $archive: expected $expected, got $actual; refusing to install" \
         "the download is damaged or was tampered with; nothing was installed" 1
fi
say "verified $archive (sha256 $actual)"
if [ -n "$cache" ]; then
    if ! { mkdir -p "$cache" && cp "$work/$archive" "$cache/.$archive.$$" &&
           mv -f "$cache/.$archive.$$" "$cache/$archive"; }; then
        say "note: cannot keep the archive in $cache"
    fi
fi

mkdir "$work/x"
case $ext in
    tar.gz) (cd "$work/x" && gzip -dc "../$archive" | tar -xf -) ;;
    zip)
        if command -v unzip >/dev/null 2>&1; then
            unzip -q "$work/$archive" -d "$work/x"
        else
            powershell.exe -NoProfile -Command "Expand-Archive -Path '$work/$archive' -DestinationPath '$work/x'"
        fi
        ;;
esac
binary="$work/x/$name/$exe"
[ -f "$binary" ] || fail "$archive does not hold $name/$exe; refusing to install" "" 1

mkdir -p "$dir" || fail "cannot create $dir" "pass a writable --dir"
# Copy beside the target, then rename: an interrupted install never leaves half a binary.
tmp="$dir/.$exe.install-$$"
cp "$binary" "$tmp" || fail "cannot write to $dir" "pass a writable --dir"
chmod 755 "$tmp"
mv -f "$tmp" "$dir/$exe"
say "installed $dir/$exe ($("$dir/$exe" --version 2>/dev/null || echo "bqsuite $version"))"
case ":${PATH:-}:" in
    *":$dir:"*) ;;
    *) say "note: $dir is not on PATH; add it, e.g. \`export PATH=\"$dir:\$PATH\"\`" ;;
esac
