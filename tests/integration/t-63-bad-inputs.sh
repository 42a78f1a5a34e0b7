#!/usr/bin/env bash
# Bad inputs, table-driven: every bad parameter value, unit, enum and combination, bad targets,
# options, profiles, output directories and commands. Each case must exit 2 with a message on stderr
# that names the culprit (the parameter, the path or the key), print nothing on stdout, and leave
# everything as it was: the existing 4 MiB file of random data every write job aims at keeps its
# md5, and nothing in the work directory (targets, ./results, ./ssdbench.scratch, temporary files) is
# created, removed or touched. Without root, the 4K-sector loop device cases are left out.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd md5sum find timeout

W=$TMPDIR/w
FIX=$REPO/tests/fixtures/results
mkdir "$W" "$W/adir" "$W/prof"
cd "$W" || fail "cannot cd to $W"
F=data.bin                          # existing, random: every write job below aims at it
head -c $((4 << 20)) /dev/urandom >"$F"
echo "not a directory" >afile       # an output directory that is a regular file

profile() { # NAME BODY: prof/NAME.json, a profile whose top level is BODY (JSON members, one per line)
	printf '{\n  "name": "%s",\n  "description": "a test profile",\n  "source": "t-63",\n%s\n}\n' \
		"$1" "$2" >"prof/$1.json"
}
profile syntax '  "defaults": { "rw": "write" }
  "matrix": { "bs": ["4k"] }'
profile unkkey '  "colour": "blue",
  "defaults": { "rw": "write" }'
profile badval '  "defaults": { "rw": "write", "bs": "4q" }'
profile unkparam '  "defaults": { "rw": "write", "blocksize": "4k" }'
profile badaxis '  "defaults": { "rw": "write" },
  "matrix": { "bs": ["4k", "64q"] }'
profile misnamed '  "defaults": { "rw": "write" }'
sed -i 's/"name": "misnamed"/"name": "other"/' prof/misnamed.json
profile ctlvalue '  "defaults": { "rw": "write", "label": "a\u001b[31mb" }'
profile ctlcase '  "defaults": { "rw": "write" },
  "matrix": { "cases": [{ "name": "two\nlines", "bs": "4k" }] }'
sed -i 's/"a test profile"/"a\\ttabbed profile"/' prof/ctlcase.json
mkfifo prof/fifo.json               # a profile that is no regular file
# Criteria whose numbers strtod would take (hex, an exponent), for check.
printf '{"criteria": [{"select": {}, "iops": ">= 0x10"}]}\n' >crit-hex.json
printf '{"criteria": [{"select": {}, "lat_p99": "<= 1e3ms"}]}\n' >crit-exp.json

# A 4K-logical-block device (root only) for O_DIRECT alignment.
D4K=
if ((EUID == 0)) && command -v losetup >/dev/null; then
	truncate -s 64M "$TMPDIR/disk4k"
	if D4K=$(losetup -f --show --sector-size 4096 "$TMPDIR/disk4k" 2>/dev/null); then
		at_exit _lib_loop_detach "$D4K" "$TMPDIR/disk4k"
		_lib_wait_block "$D4K"
		head -c $((4 << 20)) /dev/urandom | dd of="$D4K" bs=1M oflag=direct status=none
		[[ $(cat "/sys/block/${D4K#/dev/}/queue/logical_block_size") == 4096 ]] ||
			fail "$D4K: logical block size is not 4096"
	else
		D4K=
	fi
fi

# The state that must not change: the work directory's tree (names, kinds, sizes, times, modes),
# the data file's and the 4K device's contents.
state() {
	find . -printf '%y %p %s %T@ %m\n' | LC_ALL=C sort
	md5sum "$F"
	if [[ -n $D4K ]]; then
		head -c $((8 << 20)) "$D4K" | md5sum
	fi
}

NBAD=0
FAILED=()
# bad PATTERNS ARGS...: `ssdbench ARGS` exits 2 with every &-separated fixed string of PATTERNS in
# its stderr, nothing on stdout, nothing changed.
bad() {
	local pattern=$1 before after rc=0 p cmd why=()
	local -a parts
	shift
	cmd=$(printf '%q ' "$@")
	cmd=${cmd% }
	NBAD=$((NBAD + 1))
	before=$(state)
	timeout 30 "$SSDBENCH" "$@" >"$TMPDIR/out" 2>"$TMPDIR/err" </dev/null || rc=$?
	after=$(state)
	[[ $rc == 2 ]] || why+=("exit $rc, expected 2")
	IFS='&' read -ra parts <<<"$pattern"
	for p in "${parts[@]}"; do
		grep -qF -- "$p" "$TMPDIR/err" || why+=("stderr lacks \"$p\"")
	done
	[[ ! -s $TMPDIR/out ]] || why+=("stdout not empty: $(head -c 200 "$TMPDIR/out")")
	[[ $before == "$after" ]] ||
		why+=("changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -5 | tr '\n' ' ' || true)")
	if ((${#why[@]} == 0)); then
		ok "exit 2, '$pattern': $cmd"
	else
		FAILED+=("ssdbench $cmd")
		echo "not ok - ssdbench $cmd: $(IFS=';'; echo "${why[*]}"); stderr: $(head -c 300 "$TMPDIR/err" | tr '\n' ' ')"
	fi
}

long=$(printf 'x%.0s' {1..200})

# --- numeric parameters out of range ---------------------------------------------------------------
bad "bs: '256'&512..64m"                   run --rw write --bs 256 "$F"
bad "bs: '128m'&512..64m"                  run --rw write --bs 128m "$F"
bad "bs: '0'&512..64m"                     run --rw write --bs 0 "$F"
bad "qd: '0'&1..4096"                      run --rw write --qd 0 "$F"
bad "qd: '4097'&1..4096"                   run --rw write --qd 4097 "$F"
bad "threads: '0'&1..1024"                 run --rw write --threads 0 "$F"
bad "threads: '1025'&1..1024"              run --rw write --threads 1025 "$F"
bad "rwmix_write: '101'&0..100"            run --rw randrw --rwmix-write 101 "$F"
bad "repeat: '0'&1..1000"                  run --rw write --repeat 0 "$F"
bad "repeat: '1001'&1..1000"               run --rw write --repeat 1001 "$F"
bad "interval&10ms..1h"                    run --rw write --interval 5ms "$F"
bad "interval&10ms..1h"                    run --rw write --interval 2h "$F"
bad "seed: '9223372036854775808'"          run --rw write --seed 9223372036854775808 "$F"
bad "seed: '18446744073709551616'"         run --rw write --seed 18446744073709551616 "$F"
bad "stride: '256'&512..1t"                run --rw stride-write --stride 256 "$F"
bad "span: '150%'"                         run --rw write --span 150% "$F"
bad "offset: '101%'"                       run --rw write --offset 101% "$F"
bad "label&1..127"                         run --rw write --label "$long" "$F"
bad "label&1..127"                         run --rw write --label "" "$F"
bad "price: '-5'"                          run --rw write --price -5 "$F"
bad "data: 'compress:101'"                 run --rw write --data compress:101 "$F"
# --- bad units and numbers -------------------------------------------------------------------------
bad "bs: '4q'"                             run --rw write --bs 4q "$F"
bad "bs: '4.5'"                            run --rw write --bs 4.5 "$F"
bad "bs: ''"                               run --rw write --bs "" "$F"
bad "qd: '1.5'"                            run --rw write --qd 1.5 "$F"
bad "qd: '0x10'"                           run --rw write --qd 0x10 "$F"
bad "qd: '-1'"                             run --rw write --qd -1 "$F"
bad "runtime: '10y'"                       run --rw write --runtime 10y "$F"
bad "runtime: '-5s'"                       run --rw write --runtime -5s "$F"
bad "ramp: '5d'"                           run --rw write --ramp 5d "$F"
bad "span: '4kk'"                          run --rw write --span 4kk "$F"
bad "span: '2x'"                           run --rw write --span 2x "$F"
bad "offset: '-1'"                         run --rw write --offset -1 "$F"
bad "io_limit: '2y'"                       run --rw write --io-limit 2y "$F"
bad "io_limit: '0x'"                       run --rw write --io-limit 0x "$F"
bad "rwmix_write: '50%'"                   run --rw randrw --rwmix-write 50% "$F"
bad "price: 'cheap'"                       run --rw write --price cheap "$F"
# --- bad enums -------------------------------------------------------------------------------------
bad "rw: 'sideways'"                       run --rw sideways "$F"
bad "engine: 'posixaio'"                   run --rw write --engine posixaio "$F"
bad "data: 'ones'"                         run --rw write --data ones "$F"
bad "direct: 'maybe'"                      run --rw write --direct maybe "$F"
bad "trim: 'perhaps'"                      run --rw write --trim perhaps "$F"
bad "steady_state: 'iops'"                 run --rw write --runtime 10s --steady-state iops "$F"
bad "steady_state: 'foo:5x1s'"             run --rw write --runtime 10s --steady-state foo:5x1s "$F"
bad "steady_state: 'iops:1x1s'"            run --rw write --runtime 10s --steady-state iops:1x1s "$F"
bad "steady_state: 'iops:5x1s:go'"         run --rw write --runtime 10s --steady-state iops:5x1s:go "$F"
# --- combinations ----------------------------------------------------------------------------------
bad "stride&12288&8192"                    run --rw stride-write --bs 8k --stride 12k "$F"
bad "span&64k"                             run --rw write --bs 64k --span 4k "$F"
bad "span&past the end"                    run --rw write --offset 2m --span 4m "$F"
bad "offset&past the end"                  run --rw write --offset 8m "$F"
bad "span: '0'"                            run --rw write --span 0 "$F"
bad "fill&4194304"                         run --rw write --fill 8m "$F"
bad "io_limit&less than one request"       run --rw write --io-limit 1k "$F"
bad "span&4 request"                       run --rw write --threads 4 --bs 1m --span 2m "$F"
bad "steady_state&runtime"                 run --rw write --steady-state iops:5x1s "$F"
bad "steady_state&interval"                run --rw write --runtime 10s --steady-state iops:5x100ms "$F"
bad "fill&null"                            run --engine null --fill 1m "$F"
bad "64k&span"                             run --rw write --bs 4k,64k --span 32k "$F"
bad "stride"                               run --rw write,stride-write --bs 8k --stride 12k "$F"
bad "bs"                                   run --rw write --bs ,4k "$F"
bad "rw"                                   run --rw ,write "$F"
bad "bs"                                   run --set rw=write --set bs=,4k "$F"
if [[ -n $D4K ]]; then
	bad "bs&6144&4096&$D4K"                run --rw write --bs 6k "$D4K"
	bad "bs&2048&4096&$D4K"                run --rw randread --bs 2k "$D4K"
	bad "offset&512&4096&$D4K"             run --rw write --offset 512 "$D4K"
	bad "span&6144&4096&$D4K"              run --rw write --span 6k "$D4K"
else
	skip_part "the 4K-sector loop device cases (they need root and losetup --sector-size)"
fi
# --- targets ---------------------------------------------------------------------------------------
bad "'adir'"                               run --rw write adir
bad "'/dev/null'"                          run --rw write /dev/null
bad "'nodir/new.dat'"                      run --rw write nodir/new.dat
bad "'adir'"                               run --rw write "$F" adir
bad "''"                                   run --rw write ""
bad "'new.dat'&free space"                 run --rw write --span 200t new.dat
bad "'missing.dat'"                        info missing.dat
bad "'adir'"                               info adir
bad "TARGET"                               info
bad "'--bogus'"                            info --bogus "$F"
if ((EUID != 0)); then
	cp "$F" ro.bin
	chmod 0444 ro.bin
	bad "'ro.bin'"                         run --rw write ro.bin
else
	skip_part "a write to a read-only file (root can write to it)"
fi
# --- options ---------------------------------------------------------------------------------------
bad "'--blocksize'"                        run --blocksize 4k "$F"
bad "'--qd'&needs a value"                 run --rw write "$F" --qd
bad "'-o'&needs a value"                   run --rw write "$F" -o
bad "--progress&'sometimes'"               run --rw write --progress sometimes "$F"
bad "--set&'bs'"                           run --rw write --set bs "$F"
bad "--set&'=4k'"                          run --rw write --set =4k "$F"
bad "--set&'blocksize'"                    run --rw write --set blocksize=4k "$F"
bad "bs: '4q'"                             run --rw write --set bs=4q "$F"
# --- profiles --------------------------------------------------------------------------------------
bad "'nosuch'"                             run --profile nosuch "$F"
bad "'./nosuch.json'"                      run --profile ./nosuch.json "$F"
bad "prof/syntax.json:6"                   run --profile prof/syntax.json "$F"
bad "prof/unkkey.json:5&colour"            run --profile prof/unkkey.json "$F"
bad "prof/badval.json:5&defaults.bs&'4q'"  run --profile prof/badval.json "$F"
bad "prof/unkparam.json:5&blocksize"       run --profile prof/unkparam.json "$F"
bad "prof/badaxis.json:6&matrix.bs&'64q'"  run --profile prof/badaxis.json "$F"
bad "prof/misnamed.json&name&'other'"      run --profile prof/misnamed.json "$F"
bad "qd: '0'"                              run --profile quick --set qd=0 "$F"
bad "prof/syntax.json:6"                   profiles show prof/syntax.json
bad "'nosuch'"                             profiles show nosuch
bad "prof/ctlvalue.json:5&defaults.label&control character" run --profile prof/ctlvalue.json "$F"
bad "prof/ctlcase.json&description&control character" run --profile prof/ctlcase.json "$F"
bad "prof/fifo.json&not a regular file&FIFO" run --profile prof/fifo.json "$F"
# --- control characters, numbers strtod would take, long values ------------------------------------
bad "label: 'a\\nb'&control character"     run --rw write --label $'a\nb' "$F"
bad "label: 'a\\tb'&control character"     run --rw write --set $'label=a\tb' "$F"
bad "label: '\\x1b[2Jx'&control character" run --rw write --label $'\e[2Jx' "$F"
bad "label: 'bidi \\u202e'"                run --rw write --label $'bidi \u202e' "$F"
bad "rw: 'write\\r'&control character"     run --rw $'write\r' "$F"
bad "runtime: '1e3ms'&exponents"            run --rw write --runtime 1e3ms "$F"
bad "bs: '4e3'&exponents"                   run --rw write --bs 4e3 "$F"
bad "bs: '0x1000'"                          run --rw write --bs 0x1000 "$F"
bad "price: '0x10'"                         run --rw write --price 0x10 "$F"
bad "price: 'inf'"                          run --rw write --set price=inf "$F"
bad "price: ' 5'"                           run --rw write --set 'price= 5' "$F"
bad "qd: '+4'"                              run --rw write --qd +4 "$F"
bad "steady_state: 'iops:+5x1s'"            run --rw write --runtime 5s --steady-state iops:+5x1s "$F"
bad "--threshold&'0x10'"                    compare --threshold 0x10 "$FIX/iozone-a" "$FIX/iozone-b"
bad "--threshold&'1e1'&exponents"           compare --threshold 1e1 "$FIX/iozone-a" "$FIX/iozone-b"
bad "--price&'A=0x10'"                      report --price A=0x10 "$FIX/iozone-a"
bad "crit-hex.json&iops&'>= 0x10'"          check --criteria crit-hex.json "$FIX/iozone-a"
bad "crit-exp.json&lat_p99&exponents"       check --criteria crit-exp.json "$FIX/iozone-a"
bad "label: 'xxx&...'&must be 1..127 bytes (this is 400)" run --rw write --label "$long$long" "$F"
bad "bs: 'xxx&...'&not a size"              run --rw write --bs "$long$long" "$F"
# --- targets on a kernel pseudo-filesystem -----------------------------------------------------------
bad "'/proc/ssdbench-t63.dat'&directory is on proc" run --rw write /proc/ssdbench-t63.dat
# --- output directory ------------------------------------------------------------------------------
bad "'afile'"                              run --rw write -o afile "$F"
bad "'afile/sub'"                          run --rw write -o afile/sub "$F"
# --- commands --------------------------------------------------------------------------------------
bad "'frobnicate'"                         frobnicate
bad "'frobnicate'"                         help frobnicate
bad "profiles show"                        profiles show
bad "'frob'"                               profiles frob
bad "profiles list"                        profiles list extra

# No message quotes a control character raw: the terminal gets visible escapes.
for args in "run --rw write --label $'\e]0;pwned\a\e[2J' $F" "run --rw write $'\e[31m/nonexistent/dir/f'"; do
	eval "\"\$SSDBENCH\" $args" >/dev/null 2>"$TMPDIR/err" </dev/null || true
	if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$TMPDIR/err"; then
		FAILED+=("raw control character on stderr: $args")
		echo "not ok - ssdbench $args: stderr holds a raw control character: $(od -c "$TMPDIR/err" | head -3)"
	else
		ok "no raw control character on stderr: ssdbench $args"
	fi
done

if ((${#FAILED[@]})); then
	fail "${#FAILED[@]} of $NBAD bad inputs not handled as usage errors: $(printf '[%s] ' "${FAILED[@]}")"
fi
ok "all $NBAD bad inputs: exit 2, culprit named, stdout empty, nothing changed"
pass
