#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds the Debian package (debian/) with `dpkg-buildpackage -us -uc -b` from a copy of the tree in a
# temporary directory, so that nothing is written into the tree or beside it, then checks it with
# lintian where lintian is installed (any error or warning fails). Run by `make deb`.
#
#   scripts/build-deb.sh OUTDIR
#
# OUTDIR receives the .deb files and build.log (and lintian.txt). The copy is of the files git tracks
# or would track (the working tree's state, uncommitted changes included), or of the whole tree where
# there is no .git; it carries the commit in .git-revision, which the Makefile reads for --version.
# DEB_BUILD_OPTIONS passes through (nocheck leaves out the unit tests); parallel=2 unless it says.
set -euo pipefail

prog=${0##*/}
if (($# != 1)); then
    echo "usage: $prog OUTDIR" >&2
    exit 2
fi
for c in dpkg-buildpackage dh; do
    if ! command -v "$c" >/dev/null 2>&1; then
        echo "$prog: $c is not installed (scripts/install-deps.sh --package installs it)" >&2
        exit 1
    fi
done
mkdir -p "$1"
out=$(cd "$1" && pwd)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=$(cat "$repo/VERSION")
work=$(mktemp -d "${TMPDIR:-/tmp}/ssdbench-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/ssdbench-$version
mkdir "$src"

cd "$repo"
if [[ -e .git ]] && git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z -co --exclude-standard | while IFS= read -r -d '' f; do
        if [[ -e $f || -L $f ]]; then
            printf '%s\0' "$f"
        fi
    done | tar --null -T - -cf - | tar -xf - -C "$src"
    git rev-parse HEAD >"$src/.git-revision"
else
    tar --exclude=./build --exclude=./ssdbench --exclude=./results -cf - . | tar -xf - -C "$src"
fi

# A make above (make deb) must not hand its job server and flags down to the package's own make.
unset MAKEFLAGS MFLAGS MAKELEVEL
opts=${DEB_BUILD_OPTIONS:-}
[[ $opts == *parallel=* ]] || opts="$opts parallel=2"
export DEB_BUILD_OPTIONS=${opts# }
rm -f "$out"/*.deb "$out/build.log" "$out/lintian.txt"
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
    tail -n 40 "$out/build.log" >&2
    echo "$prog: dpkg-buildpackage failed (log: $out/build.log)" >&2
    exit 1
fi
mv "$work"/*.deb "$out"/
ls "$out"/*.deb

if command -v lintian >/dev/null 2>&1; then
    deb=$(ls "$out"/ssdbench_*.deb)
    rc=0
    lintian --fail-on error,warning --info --display-info "$deb" >"$out/lintian.txt" 2>&1 || rc=$?
    cat "$out/lintian.txt"
    if ((rc)); then
        echo "$prog: lintian found errors or warnings (above)" >&2
        exit 1
    fi
    echo "lintian: no error or warning ($(grep -c '^I: ' "$out/lintian.txt" || true) info tags)"
else
    echo "$prog: lintian is not installed: the package was not checked" >&2
fi
