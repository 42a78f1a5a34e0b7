#!/usr/bin/env bash
# Outputs never replace an input, and are written whole (issue 10): report -o, compare --junit and
# check --junit given an input result (by its path, inside an input directory, through a symlink, a
# hard link or a `latest` directory link), a manifest read with the results, or the criteria file,
# exit 2 naming both, with nothing written anywhere; on a full filesystem the old output is left as
# it was and no temporary file remains; /dev/null stays /dev/null; a symlinked output stays a link.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq xmllint md5sum mountpoint
FIX=$REPO/tests/fixtures/results
cd "$TMPDIR"
mkdir -p a/run b
cp "$FIX"/iozone-a/* a/run/
cp "$FIX"/iozone-b/* b/
mkdir l
ln -s ../a/run l/latest
ln -s a/run/004-4k-read-r1.json sym.json
ln b/006-4k-randread-r1.json hard.json
printf '%s\n' '{"criteria": [{"select": {"rw": "randread"}, "iops": ">= 1"}]}' >crit.json
find a b crit.json -type f -exec md5sum {} + >inputs.md5

# refused NAME OUT INPUT CMD...: exit 2, stderr names OUT and INPUT, stdout empty, no input changed.
refused() {
	local name=$1 out=$2 in=$3 rc=0
	shift 3
	"$@" >"$name.out" 2>"$name.err" || rc=$?
	[[ $rc == 2 ]] || fail "$name: expected exit 2, got $rc: $* ($(cat "$name.err"))"
	grep -qF "'$out'" "$name.err" || fail "$name: the message does not name the output '$out': $(cat "$name.err")"
	grep -qF "'$in'" "$name.err" || fail "$name: the message does not name the input '$in': $(cat "$name.err")"
	[[ ! -s $name.out ]] || fail "$name: printed on stdout: $(head -3 "$name.out")"
	md5sum --quiet -c inputs.md5 || fail "$name: an input changed (above)"
	[[ -z $(find . -name '.*.tmp.*') ]] || fail "$name: a temporary file was left: $(find . -name '.*.tmp.*')"
	ok "$name: exit 2, '$(cat "$name.err")'"
}

R=a/run/002-4k-write-r1.json
refused compare-junit "$R" "$R" "$SSDBENCH" compare --junit "$R" a b
refused compare-junit-candidate b/002-4k-write-r1.json b/002-4k-write-r1.json \
	"$SSDBENCH" compare --junit b/002-4k-write-r1.json a b
refused check-junit "$R" "$R" "$SSDBENCH" check --criteria crit.json --junit "$R" a
refused check-junit-criteria crit.json crit.json "$SSDBENCH" check --criteria crit.json --junit crit.json a
refused report-o "$R" "$R" "$SSDBENCH" report -o "$R" a
refused report-o-manifest a/run/manifest.json a/run/manifest.json "$SSDBENCH" report -o a/run/manifest.json a
refused report-o-latest l/latest/002-4k-write-r1.json a/run/002-4k-write-r1.json \
	"$SSDBENCH" report -o l/latest/002-4k-write-r1.json a
refused report-o-symlink sym.json a/run/004-4k-read-r1.json "$SSDBENCH" report -o sym.json a
refused report-o-hardlink hard.json b/006-4k-randread-r1.json "$SSDBENCH" report -o hard.json b
refused report-o-file-given "$R" "$R" "$SSDBENCH" report --format json -o "$R" "$R"

# Outputs that replace no input are written, whole, with the usual mode; no temporary file remains.
umask 022
assert_exit 0 "$SSDBENCH" report -o report.txt a b
grep -q drive-a report.txt || fail "report.txt does not hold the report"
assert_eq "$(stat -c %a report.txt)" 644 "mode of a new output file under umask 022"
rc=0
"$SSDBENCH" compare --junit j.xml a b >/dev/null || rc=$?
[[ $rc == 3 ]] || fail "compare --junit j.xml: exit $rc"
xmllint --noout j.xml || fail "j.xml is not well-formed"
assert_exit 0 "$SSDBENCH" check --criteria crit.json --junit c.xml a >/dev/null
xmllint --noout c.xml || fail "c.xml is not well-formed"
[[ -z $(find . -name '.*.tmp.*') ]] || fail "a temporary file was left: $(find . -name '.*.tmp.*')"
ok "no temporary file left"

# /dev/null stays a character device; an output through a symlink keeps the link and fills its target.
rc=0
"$SSDBENCH" compare --junit /dev/null a b >/dev/null || rc=$?
[[ $rc == 3 ]] || fail "compare --junit /dev/null: exit $rc"
[[ -c /dev/null ]] || fail "/dev/null is no longer a character device"
ok "/dev/null is still a character device"
mkdir out
: >out/target.txt
ln -s out/target.txt link.txt
assert_exit 0 "$SSDBENCH" report -o link.txt a
[[ -L link.txt ]] || fail "the symlinked output is no longer a symlink"
grep -q drive-a out/target.txt || fail "the symlink's target does not hold the report"
ok "a symlinked output stays a link, its target holds the report"

# A full filesystem: the write fails (exit 1, the cause named), the old output is as it was, no
# temporary file remains.
mnt=$TMPDIR/full
mkdir "$mnt"
mount -t tmpfs -o size=64k,mode=0700 ssdbench-test "$mnt" || skip "cannot mount a tmpfs"
at_exit _lib_umount "$mnt"
echo "the old report" >"$mnt/report.html"
echo "the old junit" >"$mnt/j.xml"
dd if=/dev/zero of="$mnt/fill" bs=4k >/dev/null 2>&1 || true
for cmd in "report --format html -o $mnt/report.html a b" "compare --junit $mnt/j.xml a b"; do
	rc=0
	# shellcheck disable=SC2086
	"$SSDBENCH" $cmd >/dev/null 2>full.err || rc=$?
	[[ $rc == 1 ]] || fail "$cmd on a full filesystem: expected exit 1, got $rc: $(cat full.err)"
	grep -q "No space left on device" full.err || fail "$cmd: the cause is not named: $(cat full.err)"
	ok "$cmd on a full filesystem: exit 1, '$(cat full.err)'"
done
assert_eq "$(cat "$mnt/report.html")" "the old report" "the old report after a failed write"
assert_eq "$(cat "$mnt/j.xml")" "the old junit" "the old JUnit file after a failed write"
assert_eq "$(find "$mnt" -name '.*' -type f | wc -l)" 0 "temporary files left on the full filesystem"
pass
