#!/usr/bin/env bash
# Profiles: every shipped profile loads (profiles list, profiles show), expands with --dry-run against a
# file and (root) a loop device without touching either or writing results, shows --set overrides,
# and a bad profile is a usage error (exit 2) naming the file, the line and the key path.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd jq md5sum

expected=(quick iozone-matrix bandwidth-surface iops-scaling fill-degradation segment-8m write-mix
	read-blocksize zones access-time snia-iops cdm cdm-nvme cdm-peak cdm-realworld cdm-mix snia-latency snia-throughput
	snia-wsat snia-dirth snia-hir snia-xsr write-blocksize drive-scaling ocp-trim-qos act-storage mixed-qos
	jesd219-enterprise)

# Profiles from the repository, whatever the binary under test is; no ./profiles in the work directory.
export SSDBENCH_PROFILE_PATH=$REPO/profiles
mkdir "$TMPDIR/work"
cd "$TMPDIR/work" || fail "cannot cd to $TMPDIR/work"

shopt -s nullglob
files=("$REPO"/profiles/*.json)
shopt -u nullglob
((${#files[@]} > 0)) || fail "no profiles in $REPO/profiles"
names=()
for f in "${files[@]}"; do
	names+=("$(basename "$f" .json)")
done

# --- profiles list / show ---------------------------------------------------------------------------
assert_exit 0 "$SSDBENCH" profiles >"$TMPDIR/list" 2>"$TMPDIR/list.err"
[[ ! -s $TMPDIR/list.err ]] || fail "profiles list complained: $(cat "$TMPDIR/list.err")"
for n in "${names[@]}"; do
	grep -q "^$n " "$TMPDIR/list" || fail "profiles list does not list $n: $(cat "$TMPDIR/list")"
	"$SSDBENCH" profiles show "$n" >"$TMPDIR/show" 2>&1 || fail "profiles show $n: $(cat "$TMPDIR/show")"
	grep -q "^profile: *$n " "$TMPDIR/show" || fail "profiles show $n does not name it: $(head -3 "$TMPDIR/show")"
done
ok "profiles lists and shows all ${#names[@]} profiles: ${names[*]}"

# --- --dry-run: exit 0, a total line, nothing touched ------------------------------------------------
# Every profile is tried on every target; the failures are listed at the end of the test.
dry_failed=()
dry_run() { # NAME TARGET: runs the dry run, checks its output
	local n=$1 target=$2 out=$TMPDIR/dry-$1.out rc=0
	"$SSDBENCH" run --profile "$n" --dry-run --output "$TMPDIR/results" "$target" >"$out" 2>"$out.err" || rc=$?
	if ((rc != 0)); then
		echo "# run --profile $n --dry-run $target exited $rc: $(cat "$out.err")"
		dry_failed+=("$n on $target")
	elif ! grep -q '^total: [0-9]* runs, ' "$out"; then
		echo "# dry run of $n on $target prints no total line: $(cat "$out")"
		dry_failed+=("$n on $target (no total line)")
	fi
}

file=$TMPDIR/target.img
for n in "${names[@]}"; do
	dry_run "$n" "$file"
	[[ ! -e $file ]] || fail "dry run of $n created the file target"
done
ok "no dry run created the file target"

if ((EUID == 0)); then
	# Smaller than most profiles' spans: a profile's span is capped to the target (docs/profiles.md).
	dev=$(make_loop 256M)
	dd if=/dev/urandom of="$dev" bs=1M count=8 oflag=direct status=none
	sum=$(md5sum <"$dev")
	for n in "${names[@]}"; do
		dry_run "$n" "$dev"
	done
	assert_eq "$(md5sum <"$dev")" "$sum" "the dry runs on $dev left its content unchanged"
	# A profile's span past the target is capped with a note; on the command line it is an error.
	if [[ -f $REPO/profiles/iozone-matrix.json ]]; then
		grep -q 'larger than the target' "$TMPDIR/dry-iozone-matrix.out.err" ||
			fail "iozone-matrix (span 4g) on 256M: no note about the capped span: $(cat "$TMPDIR/dry-iozone-matrix.out.err")"
		ok "iozone-matrix's 4 GiB span capped to $dev with a note"
	fi
	assert_exit 2 "$SSDBENCH" run --span 1g --dry-run "$dev" 2>/dev/null
else
	skip_part "not root: the dry runs on a loop device"
fi
[[ ! -e $TMPDIR/results && ! -e results ]] || fail "a dry run created a results directory"
ok "no results directory after the dry runs"

# --- --set overrides show in the dry run -------------------------------------------------------------
if [[ -f $REPO/profiles/quick.json ]]; then
	out=$TMPDIR/set.out
	assert_exit 0 "$SSDBENCH" run --profile quick --dry-run --set bs=8k,16k,32k --set qd=3 --set repeat=2 \
		"$file" >"$out"
	assert_eq "$(grep -c ' rw=[a-z]* bs=\(8k\|16k\|32k\) qd=3 .* repeat=2' "$out")" 12 \
		"quick with --set bs=8k,16k,32k qd=3 repeat=2: case lines"
	assert_eq "$(grep -c 'bs=4k\|bs=128k\|qd=8' "$out" || true)" 0 "the profile's bs axis and qd are gone"
	grep -q '^total: 24 runs, ' "$out" || fail "expected 24 runs: $(grep total "$out")"
	ok "the total counts the repeats: 24 runs"
	[[ ! -e $file ]] || fail "the dry run created the file target"
fi

# --- bad profiles: exit 2, the file, the line, the key path ------------------------------------------
bad=$TMPDIR/bad
mkdir "$bad"
bad_profile() { # FILE KEYPATH PATTERN-ON-LINE: expects exit 2 naming FILE:LINE: KEYPATH
	local f=$1 key=$2 pat=$3 line
	line=$(grep -n -- "$pat" "$f" | head -1 | cut -d: -f1)
	[[ -n $line ]] || fail "test setup: '$pat' not in $f"
	assert_exit 2 "$SSDBENCH" run --profile "$f" --dry-run --output "$TMPDIR/results" "$file" 2>"$bad/err"
	grep -qF "$f:$line: $key: " "$bad/err" || fail "expected '$f:$line: $key: ' in: $(cat "$bad/err")"
	ok "names $f:$line: $key"
	[[ ! -e $file && ! -e $TMPDIR/results ]] || fail "a refused profile touched the target or wrote results"
}
src=$REPO/profiles/${names[0]}.json
# A typo'd top-level key.
sed 's/"description"/"descripton"/' "$src" >"$bad/${names[0]}.json"
bad_profile "$bad/${names[0]}.json" descripton '"descripton"'
# A typo'd parameter in defaults, on a line of its own.
jq '.defaults += {"blocksize": "4k"}' "$src" >"$bad/${names[0]}.json"
bad_profile "$bad/${names[0]}.json" defaults.blocksize '"blocksize"'
# A value out of range in the matrix.
jq '.matrix = {"qd": [1, 0]}' "$src" >"$bad/${names[0]}.json"
bad_profile "$bad/${names[0]}.json" 'matrix.qd[1]' '^ *0$'
# A file whose name is not the profile's.
cp "$src" "$bad/renamed.json"
bad_profile "$bad/renamed.json" name '"name"'

# profiles list reports a broken profile on the path (it shadows the good one) and exits 2.
sed 's/"description"/"descripton"/' "$src" >"$bad/${names[0]}.json"
rc=0
SSDBENCH_PROFILE_PATH=$bad:$REPO/profiles "$SSDBENCH" profiles >/dev/null 2>"$bad/err" || rc=$?
assert_eq "$rc" 2 "profiles list with a broken profile on the path exits"
grep -qF "$bad/${names[0]}.json:" "$bad/err" || fail "profiles list does not name the broken file: $(cat "$bad/err")"
assert_exit 2 "$SSDBENCH" run --profile no-such-profile --dry-run "$file" 2>/dev/null
assert_exit 2 "$SSDBENCH" run --profile "${names[0]}" --dry-run --set blocksize=4k "$file" 2>/dev/null
[[ ! -e $file ]] || fail "a refused run created the file target"

# bandwidth-surface's stride is 17 x bs (IOzone -j 17) given as 17x: a try-out with fewer block
# sizes keeps the pairing (the null engine records the jobs without moving data).
bwdir=$(mktemp -d "$TMPDIR/bw.XXXXXX")
"$SSDBENCH" run --profile bandwidth-surface --set bs=4k,64k --set threads=1 --set span=1m \
	--set engine=null --set repeat=1 --output "$bwdir/res" --progress never "$bwdir/file" >/dev/null \
	2>"$bwdir/err" || fail "bandwidth-surface with --set bs=4k,64k: $(cat "$bwdir/err")"
strides=$(jq -r 'select(.profile.phase == "measure") | "\(.job.bs)/\(.job.stride)"' "$bwdir"/res/*/0*.json |
	sort -u | tr '\n' ' ')
assert_eq "$strides" "4096/69632 65536/1114112 " "bandwidth-surface --set bs=4k,64k: bs/stride of every case"

# --- the verdicts kept for the end, so that every check above has run -------------------------------
((${#dry_failed[@]} == 0)) || fail "dry runs failed: ${dry_failed[*]}"
ok "every profile dry-runs with a total line"

# --- the shipped set ---------------------------------------------------------------------------------
missing=()
for n in "${expected[@]}"; do
	[[ -f $REPO/profiles/$n.json ]] || missing+=("$n")
done
((${#missing[@]} == 0)) || fail "profiles missing from profiles/: ${missing[*]}"
ok "all ${#expected[@]} documented profiles are shipped"
pass
