#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make install and the Debian package:
#   (a) `make install DESTDIR=... PREFIX=/usr` (objects and binary under $TMPDIR, nothing written in the
#       tree) installs exactly the binary, the profiles, the schemas, one man page per command of
#       `ssdbench help --commands` with help of its own and ssdbench(1), ssdbench-profile(5) and
#       ssdbench-result(5), and the completions of bash, zsh and fish; it builds the installed binary apart
#       (INSTALL_BUILD), so the development binary built before it with the default PREFIX is byte for
#       byte the same after it (and after the second install of (b)), its objects not rebuilt;
#   (b) the installed binary, run from another directory, lists the profiles and runs the quick profile
#       (cut to two 0.5 s cases) on a scratch file; a binary built for PREFIX=/usr looks in
#       /usr/share/ssdbench/profiles; a second install with another PREFIX rebuilds what embeds it, and
#       that binary, copied away from its tree, finds its profiles from any directory;
#   (c) every man page passes `man --warnings -l` and `groff -man -ww -z` with nothing said, and has
#       its sections; ssdbench(1)'s SEE ALSO names the section-5 pages;
#   (d) the completion, sourced, completes commands, options, profile names, values, devices, files;
#   (e) the git revision: `git archive` writes it into .git-revision; a tree with neither .git nor a
#       written .git-revision builds as "unknown", which --version explains;
#   (f) `make uninstall` removes every file it installed;
#   (g) where dpkg-buildpackage, debhelper and lintian are installed (scripts/install-deps.sh --package),
#       the .deb built from a copy of the tree holds the same files (man pages compressed, docs added)
#       and lintian finds no error or warning; it recommends fio and smartmontools, and suggests
#       blktrace, jq and nvme-cli.
# run-all: concurrent, long
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd make cc awk man groff git sha256sum
# The test builds, installs and packages a plain binary of its own, whatever $SSDBENCH is: under
# `make sanitize` it would repeat make check's pass of it word for word (and two minutes of builds).
if sanitizer_build; then
    skip "it tests a plain build of its own, which make check's pass already did"
fi

# The test's own make must not inherit a make check's flags and job server (nor SANITIZE).
unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE SSDBENCH_PROFILE_PATH
build=$TMPDIR/build root=$TMPDIR/root elsewhere=$TMPDIR/elsewhere
mkdir -p "$elsewhere"
mk() {
    make -s -C "$REPO" -j2 BUILD="$build" BIN="$build/ssdbench" "$@" >"$TMPDIR/make.log" 2>&1 ||
        { cat "$TMPDIR/make.log"; fail "make $*"; }
}

# What the tree holds before: the test's builds must leave it as it was.
tree_state() {
    git -C "$REPO" status --porcelain --ignored 2>/dev/null
    stat -c '%n %Y' "$REPO/ssdbench" "$REPO"/build/*/prefix.stamp 2>/dev/null || true
}
tree_before=$(tree_state)

# The development build (default PREFIX), which no install may change.
mk
dev_sum=$(sha256sum <"$build/ssdbench")
dev_objs=$(stat -c '%n %Y' "$build/model/profile.o" "$build/prefix.stamp")
dev_unchanged() {
    assert_eq "$(sha256sum <"$build/ssdbench")" "$dev_sum" "$1: sha256 of the development binary"
    assert_eq "$(stat -c '%n %Y' "$build/model/profile.o" "$build/prefix.stamp")" "$dev_objs" \
        "$1: the development build's PREFIX objects"
}

# (a) the file list
t0=$(now)
mk install DESTDIR="$root" PREFIX=/usr
ok "make install DESTDIR PREFIX=/usr in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
dev_unchanged "make install PREFIX=/usr"
[[ -x $build-install/ssdbench ]] || fail "the installed binary was not built in INSTALL_BUILD ($build-install)"
ok "the development binary is byte for byte as before the install; the installed one built in \$build-install"
bin=$root/usr/bin/ssdbench
mapfile -t cmds < <("$bin" help --commands | cut -f1)
pages=()
for c in "${cmds[@]}"; do
    if "$bin" help "$c" >/dev/null 2>&1; then
        pages+=("$c")
    fi
done
assert_ge "${#pages[@]}" 7 "commands with a man page"
{
    echo usr/bin/ssdbench
    echo usr/share/bash-completion/completions/ssdbench
    echo usr/share/zsh/site-functions/_ssdbench
    echo usr/share/fish/vendor_completions.d/ssdbench.fish
    echo usr/share/man/man1/ssdbench.1
    echo usr/share/man/man5/ssdbench-profile.5
    echo usr/share/man/man5/ssdbench-result.5
    printf 'usr/share/man/man1/ssdbench-%s.1\n' "${pages[@]}"
    (cd "$REPO" && printf 'usr/share/ssdbench/%s\n' profiles/*.json schema/*.json)
    # ssdbench-mpi goes beside it where `make mpi` built it (t-93 does, and a developer may): then
    # install may have taken it, never otherwise.
    if [[ -f $root/usr/bin/ssdbench-mpi ]] &&
        [[ -x $REPO/ssdbench-mpi || -n $(find "$REPO/build" -name ssdbench-mpi -type f -perm -u+x 2>/dev/null) ]]; then
        echo usr/bin/ssdbench-mpi
    fi
} | LC_ALL=C sort >"$TMPDIR/want.txt"
(cd "$root" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort) >"$TMPDIR/have.txt"
diff -u "$TMPDIR/want.txt" "$TMPDIR/have.txt" || fail "installed files differ from the list (above)"
ok "installed: $(wc -l <"$TMPDIR/have.txt") files, as listed (${#pages[@]} command pages)"
[[ -x $bin && ! -x $root/usr/share/ssdbench/profiles/quick.json ]] || fail "modes: binary 755, data 644"

# (b) profiles from anywhere, and a short run of the quick profile
cd "$elsewhere" || fail "cd $elsewhere"
"$bin" profiles list | awk '{ print $1 }' | LC_ALL=C sort >"$TMPDIR/listed.txt"
(cd "$REPO/profiles" && for f in *.json; do echo "${f%.json}"; done | LC_ALL=C sort) >"$TMPDIR/shipped.txt"
diff -u "$TMPDIR/shipped.txt" "$TMPDIR/listed.txt" || fail "profiles list from $elsewhere (above)"
ok "the installed binary lists the $(wc -l <"$TMPDIR/listed.txt") installed profiles from another directory"
rc=0
"$bin" run --profile no-such-profile --dry-run "$TMPDIR/scratch" 2>"$TMPDIR/err.txt" || rc=$?
assert_eq "$rc" 2 "a missing profile"
grep -q "/usr/share/ssdbench/profiles" "$TMPDIR/err.txt" ||
    fail "PREFIX=/usr: the binary does not look in /usr/share/ssdbench/profiles: $(cat "$TMPDIR/err.txt")"
ok "a binary built with PREFIX=/usr looks in /usr/share/ssdbench/profiles"
t0=$(now)
"$bin" run --profile quick --set runtime=500ms --set ramp=0 --set span=16m --set rw=randread,write \
    --set bs=4k --output "$TMPDIR/results" "$TMPDIR/scratch" >"$TMPDIR/run.txt" 2>&1 ||
    { cat "$TMPDIR/run.txt"; fail "the quick profile through the installed binary"; }
mapfile -t files < <(result_files "$TMPDIR/results")
assert_eq "${#files[@]}" 2 "result files of the cut quick profile"
for f in "${files[@]}"; do
    assert_eq "$(jget "$f" .status)" ok "status of ${f##*/}"
    assert_eq "$(jget "$f" .profile.name)" quick "profile of ${f##*/}"
done
ok "quick profile (2 cases) through the installed binary in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"

# A second install with another PREFIX, into that PREFIX: the objects that embed it are rebuilt.
prefix=$TMPDIR/prefix
mk install PREFIX="$prefix"
mkdir -p "$elsewhere/bin"
cp "$prefix/bin/ssdbench" "$elsewhere/bin/ssdbench"
cd /
"$elsewhere/bin/ssdbench" profiles show quick >/dev/null || fail "profiles show quick from /, installed in $prefix"
"$elsewhere/bin/ssdbench" run --profile no-such-profile --dry-run x 2>"$TMPDIR/err.txt" || true
grep -qF "$prefix/share/ssdbench/profiles" "$TMPDIR/err.txt" || fail "PREFIX change not rebuilt: $(cat "$TMPDIR/err.txt")"
ok "PREFIX=$prefix rebuilt: a copy of the binary elsewhere finds $prefix/share/ssdbench/profiles from /"
dev_unchanged "make install PREFIX=$prefix"
cd "$elsewhere" || fail "cd $elsewhere"

# (c) the man pages
for p in "$root"/usr/share/man/man1/*.1; do
    MANROFFSEQ='' MANWIDTH=100 man --warnings -l "$p" >"$TMPDIR/man.txt" 2>"$TMPDIR/manerr.txt" ||
        fail "man -l ${p##*/}"
    [[ ! -s $TMPDIR/manerr.txt ]] || { cat "$TMPDIR/manerr.txt"; fail "man --warnings on ${p##*/} (above)"; }
    for s in NAME SYNOPSIS DESCRIPTION 'EXIT STATUS' FILES 'SEE ALSO'; do
        grep -q "^$s\$" "$TMPDIR/man.txt" || fail "${p##*/}: no section $s"
    done
    grep -q '/usr/share/ssdbench/profiles' "$TMPDIR/man.txt" || fail "${p##*/}: FILES without the profiles"
    grep -q '^ *130 ' "$TMPDIR/man.txt" || fail "${p##*/}: exit status 130 missing"
done
man -l "$root/usr/share/man/man1/ssdbench-run.1" 2>/dev/null | grep -q -- '--profile NAME|PATH' ||
    fail "ssdbench-run(1) lacks --profile"
man -l "$root/usr/share/man/man1/ssdbench.1" 2>/dev/null | grep -q 'ssdbench-run(1)' ||
    fail "ssdbench(1) does not refer to ssdbench-run(1)"
for p in "$root"/usr/share/man/man5/*.5; do
    MANROFFSEQ='' MANWIDTH=100 man --warnings -l "$p" >"$TMPDIR/man.txt" 2>"$TMPDIR/manerr.txt" ||
        fail "man -l ${p##*/}"
    [[ ! -s $TMPDIR/manerr.txt ]] || { cat "$TMPDIR/manerr.txt"; fail "man --warnings on ${p##*/} (above)"; }
    for s in NAME DESCRIPTION 'SEE ALSO'; do
        grep -q "^$s\$" "$TMPDIR/man.txt" || fail "${p##*/}: no section $s"
    done
done
for p in "$root"/usr/share/man/man[15]/*.[15]; do
    groff -man -ww -z -t "$p" >"$TMPDIR/groff.txt" 2>&1 || fail "groff on ${p##*/}: $(cat "$TMPDIR/groff.txt")"
    [[ ! -s $TMPDIR/groff.txt ]] || fail "groff -ww on ${p##*/}: $(cat "$TMPDIR/groff.txt")"
done
man -l "$root/usr/share/man/man5/ssdbench-profile.5" 2>/dev/null | grep -q '^MATRIX\|"matrix"' ||
    fail "ssdbench-profile(5) does not hold docs/profiles.md's format"
man -l "$root/usr/share/man/man5/ssdbench-result.5" 2>/dev/null | grep -q 'schema_version' ||
    fail "ssdbench-result(5) does not hold docs/result-format.md's keys"
# (the text joined: where the line breaks depends on the width and the pages listed before)
man -l "$root/usr/share/man/man1/ssdbench.1" 2>/dev/null | tr -s ' \n' '  ' | grep -q 'ssdbench-profile(5), ssdbench-result(5)' ||
    fail "ssdbench(1)'s SEE ALSO does not name the section-5 pages"
ok "${#pages[@]} + 1 man pages of section 1 and 2 of section 5: no warning from man --warnings nor groff -ww, every section there"

# (d) the completion, against the installed binary
if ((EUID == 0)) && command -v losetup >/dev/null; then
    loopdev=$(make_loop 16M)
else
    loopdev=
    skip_part "device completion: needs root and losetup for a loop device"
fi
touch "$TMPDIR/results-a.json"
complete_out=$(PATH=$root/usr/bin:$PATH TMPDIR=$TMPDIR LOOPDEV=$loopdev bash -c '
    . "$1"
    complete -p ssdbench
    c() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _ssdbench; echo "${COMPREPLY[*]}"; }
    c ssdbench ""
    c ssdbench run --pro
    c ssdbench run --profile snia-i
    c ssdbench profiles ""
    c ssdbench profiles show cdm
    c ssdbench report --units ""
    c ssdbench verify --jo
    c ssdbench run --set rwmix
    c ssdbench help ""
    c ssdbench report "$TMPDIR/results-"
    if [[ -n $LOOPDEV ]]; then c ssdbench info "${LOOPDEV%[0-9]*}"; else echo; fi
    c ssdbench check --criteria x -
' _ "$root/usr/share/bash-completion/completions/ssdbench")
mapfile -t got <<<"$complete_out"
assert_eq "${got[0]}" "complete -F _ssdbench ssdbench" "complete -p"
assert_eq "${got[1]}" "${cmds[*]}" "commands"
assert_eq "${got[2]}" "--profile --progress" "run --pro"
assert_eq "${got[3]}" "snia-iops" "run --profile snia-i"
assert_eq "${got[4]}" "list show" "profiles"
assert_eq "${got[5]}" "cdm-mix cdm-nvme cdm-peak cdm-realworld cdm" "profiles show cdm"
assert_eq "${got[6]}" "mb mib" "report --units"
assert_eq "${got[7]}" "--journal" "verify --jo"
assert_eq "${got[8]}" "rwmix_write=" "run --set rwmix"
assert_eq "${got[9]}" "${cmds[*]}" "help COMMAND"
assert_eq "${got[10]}" "$TMPDIR/results-a.json" "a file"
if [[ -n $loopdev ]]; then
    [[ " ${got[11]} " == *" $loopdev "* ]] || fail "info ${loopdev%[0-9]*}: $loopdev not among '${got[11]}'"
    ok "info ${loopdev%[0-9]*} completes block devices, $loopdev among them"
fi
for o in --criteria --junit --format --allow-missing --help; do
    [[ " ${got[12]} " == *" $o "* ]] || fail "check -: $o not among '${got[12]}'"
done
ok "check - completes its options"

# (e) the git revision without .git
if git -C "$REPO" cat-file -e HEAD:.git-revision 2>/dev/null; then
    rev=$(git -C "$REPO" archive HEAD .git-revision | tar -xOf - .git-revision)
    assert_eq "$rev" "$(git -C "$REPO" rev-parse HEAD)" "git archive writes the commit into .git-revision"
else
    skip_part "git archive's .git-revision: not a git checkout, or .git-revision not committed"
    rev=0123456789abcdef0123456789abcdef01234567
fi
mkdir -p "$TMPDIR/tarball/src/cli"
cp "$REPO/Makefile" "$REPO/VERSION" "$REPO/.git-revision" "$TMPDIR/tarball/"
touch "$TMPDIR/tarball/src/cli/cli.c"
for case in unsubstituted substituted; do
    [[ $case == substituted ]] && echo "$rev" >"$TMPDIR/tarball/.git-revision"
    gitrev=$(make -n -C "$TMPDIR/tarball" build/rel/cli/cli.o 2>/dev/null | grep -o "GITREV='\"[^\"]*\"'" | head -1)
    want=unknown
    [[ $case == substituted ]] && want=${rev:0:12}
    assert_eq "$gitrev" "GITREV='\"$want\"'" "the revision compiled in from a tree without .git, $case .git-revision"
done
mk "$build/ssdbench" GITREV=unknown
assert_eq "$("$build/ssdbench" --version)" "ssdbench $(cat "$REPO/VERSION") (git unknown: not built from a git checkout)" \
    "--version without a revision"
installed_version=$("$bin" --version)
assert_eq "$installed_version" "ssdbench $(cat "$REPO/VERSION") (git $(git -C "$REPO" rev-parse --short=12 HEAD))" \
    "--version of the installed binary"

# (f) uninstall
mk uninstall DESTDIR="$root" PREFIX=/usr
left=$(cd "$root" && find . ! -type d)
assert_eq "$left" "" "files left after make uninstall"
[[ $(tree_state) == "$tree_before" ]] || fail "the test's builds changed the tree: $(diff <(echo "$tree_before") <(tree_state))"
ok "the tree is as it was (objects and binaries under \$TMPDIR)"

# (g) the Debian package
missing=
for c in dpkg-buildpackage dh lintian dpkg-deb; do
    command -v "$c" >/dev/null || missing="$missing $c"
done
if [[ -n $missing ]]; then
    skip_part "the Debian package: not installed:$missing (scripts/install-deps.sh --package)"
    pass
fi
t0=$(now)
DEB_BUILD_OPTIONS=nocheck "$REPO/scripts/build-deb.sh" "$TMPDIR/deb" >"$TMPDIR/deb.txt" 2>&1 ||
    { cat "$TMPDIR/deb.txt"; fail "scripts/build-deb.sh"; }
secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')
ok "dpkg-buildpackage -us -uc -b and lintian in $secs s"
! grep -q '^[EW]: ' "$TMPDIR/deb/lintian.txt" || fail "lintian: $(grep '^[EW]: ' "$TMPDIR/deb/lintian.txt")"
ok "lintian: no error or warning, $(grep -c '^I: ' "$TMPDIR/deb/lintian.txt" || true) info tags"
deb=$(ls "$TMPDIR"/deb/ssdbench_*.deb)
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\.\//, "", $6); print $6 }' | LC_ALL=C sort >"$TMPDIR/deb-files.txt"
{
    # the package is built from a clean tree (debian/rules): never with ssdbench-mpi
    grep -v '^usr/bin/ssdbench-mpi$' "$TMPDIR/want.txt" | sed 's|^\(usr/share/man/man[15]/.*\.[15]\)$|\1.gz|'
    echo usr/share/doc/ssdbench/changelog.gz
    echo usr/share/doc/ssdbench/copyright
    (cd "$REPO" && sed 's|^\(docs/\)\{0,1\}\(.*\)|usr/share/doc/ssdbench/\2.gz|' debian/ssdbench.docs)
} | LC_ALL=C sort >"$TMPDIR/deb-want.txt"
diff -u "$TMPDIR/deb-want.txt" "$TMPDIR/deb-files.txt" || fail "the package's files (above)"
ok "the package holds $(wc -l <"$TMPDIR/deb-files.txt") files: binary, profiles, schemas, man pages, completion, docs"
assert_eq "$(dpkg-deb -f "$deb" Version)" "$(cat "$REPO/VERSION")" "package version (debian/changelog) and VERSION"
assert_eq "$(dpkg-deb -f "$deb" Recommends)" "fio, smartmontools" "the package's Recommends"
assert_eq "$(dpkg-deb -f "$deb" Suggests)" "blktrace, jq, nvme-cli" "the package's Suggests"
mkdir "$TMPDIR/debx"
dpkg-deb -x "$deb" "$TMPDIR/debx"
assert_eq "$("$TMPDIR/debx/usr/bin/ssdbench" --version)" "$installed_version" "--version of the packaged binary"
pass
