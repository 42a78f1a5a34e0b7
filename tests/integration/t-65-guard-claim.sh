#!/usr/bin/env bash
# One claim for the whole invocation (issue 10, item 6): a write job holds its device (O_EXCL) or file
# (an exclusive lock) from its first run to its last, so a second write job started between two runs
# of the first is refused at once (exit 2, "in use") and the first ends with every run ok; read jobs
# are not disturbed; a target given twice in one invocation shares its claim.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_cmd python3 jq


# contend FIRST... -- SECOND... -- READ...: runs FIRST with --json into a pipe of one page, reads its
# first result, then stops reading: FIRST blocks writing its second result, between two runs. Then
# runs SECOND and READ, drains FIRST and prints "SECOND_RC READ_RC FIRST_RC".
contend() {
	python3 - "$@" <<'EOF'
import fcntl, os, subprocess, sys, time
args = sys.argv[1:]
i = args.index("--"); first = args[:i]; rest = args[i + 1:]
j = rest.index("--"); second = rest[:j]; read = rest[j + 1:]
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ: one page, smaller than one result
p = subprocess.Popen(first, stdout=w, stderr=open(os.environ["TMPDIR"] + "/err1", "w"))
os.close(w)
f = os.fdopen(r, "rb")
f.readline()
time.sleep(0.5)
if p.poll() is not None:
    sys.exit("the first job ended before the second started")
rc2 = subprocess.call(second, stdout=subprocess.DEVNULL, stderr=open(os.environ["TMPDIR"] + "/err2", "w"))
rc3 = subprocess.call(read, stdout=subprocess.DEVNULL, stderr=open(os.environ["TMPDIR"] + "/err3", "w"))
f.read()
print(rc2, rc3, p.wait())
EOF
}

zdev=$(make_zram 256M)
common=(--output "$TMPDIR/claim" --progress never)
read -r rc2 rc3 rc1 < <(contend "$SSDBENCH" run --rw randwrite --runtime 200ms --repeat 6 --json "${common[@]}" \
	"$zdev" -- "$SSDBENCH" run --rw write --bs 1m --io-limit 4m "${common[@]}" "$zdev" \
	-- "$SSDBENCH" run --rw randread --runtime 200ms "${common[@]}" "$zdev")
assert_eq "$rc2" 2 "a second write job on $zdev between two runs of the first: exit status ($(cat "$TMPDIR/err2"))"
grep -q "'$zdev': refusing to write to a device in use" "$TMPDIR/err2" || fail "message: $(cat "$TMPDIR/err2")"
assert_eq "$rc3" 0 "a read job on $zdev meanwhile ($(cat "$TMPDIR/err3"))"
assert_eq "$rc1" 0 "the first job ($(cat "$TMPDIR/err1"))"
dir=$(dirname "$(grep -l '"repeat_index": 6' -r "$TMPDIR/claim" | head -1)")
assert_eq "$(jq -r '.runs | map(.status) | join(",")' "$dir/manifest.json")" "ok,ok,ok,ok,ok,ok" \
	"every run of the first job"
ok "a device is claimed for the whole invocation"

file=$TMPDIR/target.file
read -r rc2 rc3 rc1 < <(contend "$SSDBENCH" run --rw randwrite --span 8m --runtime 200ms --repeat 4 --json \
	"${common[@]}" "$file" -- "$SSDBENCH" run --rw write --bs 1m --span 8m --io-limit 4m "${common[@]}" "$file" \
	-- "$SSDBENCH" run --rw randread --runtime 200ms "${common[@]}" "$file")
assert_eq "$rc2" 2 "a second write job on the file between two runs of the first: exit status ($(cat "$TMPDIR/err2"))"
grep -q "'$file': file is in use: another program (another ssdbench run?) holds a lock on it" "$TMPDIR/err2" ||
	fail "message: $(cat "$TMPDIR/err2")"
assert_eq "$rc3" 0 "a read job on the laid-out file meanwhile ($(cat "$TMPDIR/err3"))"
assert_eq "$rc1" 0 "the first job on the file ($(cat "$TMPDIR/err1"))"
ok "a file is locked for the whole invocation"

# The same target twice in one invocation shares one claim; a profile's prepare jobs and cases too.
"$SSDBENCH" run --rw write,randwrite --bs 1m --io-limit 4m "${common[@]}" "$zdev" "$zdev" >/dev/null \
	2>"$TMPDIR/err" || fail "the same device twice: $(cat "$TMPDIR/err")"
"$SSDBENCH" run --rw write --bs 1m --span 4m "${common[@]}" "$file" "$file" >/dev/null 2>"$TMPDIR/err" ||
	fail "the same file twice: $(cat "$TMPDIR/err")"
ok "a target given twice shares its claim"
pass
